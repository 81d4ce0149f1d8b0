// ptocc: bisheng's command line for the ptosim simulator (docs/ptocc.md).
#include "driver.hpp"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return ptocc::run_ptocc(args);
}
