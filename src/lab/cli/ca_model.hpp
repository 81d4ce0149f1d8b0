// The CANN-shaped root's simulator entry points, `msprof op simulator` and
// `cannsim record`: they run an application on ptosim with a SoC profile,
// under a whole-process timeout, with the simulated-time summary and trace
// written to their output folder (docs/drop-in.md, "msprof and cannsim").
#pragma once

namespace ptolab::cli {

int msprof_main(int argc, char** argv);
int cannsim_main(int argc, char** argv);

}  // namespace ptolab::cli
