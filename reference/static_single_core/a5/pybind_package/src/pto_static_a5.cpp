// The package builds the same module source as ../run_pybind.py uses; the
// include keeps one copy of it (setuptools wants sources inside the package).
#include "../../pybind_module.cpp"
