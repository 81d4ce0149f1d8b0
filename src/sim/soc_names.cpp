// Prints every SoC name a CANN tool may use (profile names, then the alias
// table), one per line: the directories of tools/simulator/ in the CANN-shaped root.
#include <ptosim/runtime.hpp>

#include <cstdio>

int main() {
    for (const auto& p : ptosim::soc_profiles()) std::printf("%s\n", p.name);
    for (const auto& a : ptosim::soc_aliases()) std::printf("%s\n", a.cann_name);
    return 0;
}
