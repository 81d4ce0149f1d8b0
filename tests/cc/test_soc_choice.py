#!/usr/bin/python3
"""Which SoC a process simulates when nothing else chose it: the first kernel
library loaded, never a launch (docs/soc-profiles.md, "Choosing the SoC").
Each case runs in a fresh process that loads ptocc-built libraries with
ctypes, as the cookbook's runners do; a launch for the other target fails
with the exact message (kernel, both targets, how the SoC was chosen, fix).

usage: test_soc_choice.py <ptocc> <kernels dir> <libptosim.so> <work dir>
"""
import os
import subprocess
import sys

ptocc, kernels, libptosim, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
failures = 0


def build(arch, macro, out):
    path = os.path.join(work, out)
    src = os.path.join(kernels, "vec_add.cpp")
    subprocess.run([ptocc, "-fPIC", "-shared", "-xcce", f"--cce-aicore-arch={arch}", macro, src, "-o", path],
                   check=True)
    return path


a2 = build("dav-c220-vec", "-DMEMORY_BASE", "libsoc_a2a3.so")
a5 = build("dav-c310-vec", "-DREGISTER_BASE", "libsoc_a5.so")

# The child: runs its steps in order and prints one line for each.
#   load:<lib>    ctypes.CDLL(lib)            -> "loaded"
#   soc           ptosim_soc_name()           -> the name
#   camodel:<n>   ptosim_camodel_select(n)    -> its return code
#   launch:<lib>  call_vec_add, synchronise   -> "ok" or the error message
CHILD = r"""
import ctypes, sys
import numpy as np
rt = ctypes.CDLL(sys.argv[1])
rt.ptosim_soc_name.restype = ctypes.c_char_p
rt.aclGetRecentErrMsg.restype = ctypes.c_char_p
libs = {}
ready = False
for step in sys.argv[2:]:
    op, _, arg = step.partition(":")
    if op == "load":
        libs[arg] = ctypes.CDLL(arg)
        print("loaded")
    elif op == "soc":
        print(rt.ptosim_soc_name().decode())
    elif op == "camodel":
        print(rt.ptosim_camodel_select(arg.encode()))
    elif op == "launch":
        if not ready:
            assert rt.aclInit(None) == 0 and rt.aclrtSetDevice(0) == 0
            ready = True
        x = np.arange(32 * 64, dtype=np.float32)
        z = np.zeros_like(x)
        p = lambda a: ctypes.c_void_p(a.ctypes.data)
        # The kernel's GM must be memory the device maps (registered), or it faults.
        for a in (x, z):
            assert rt.ptosim_register_memory(p(a), ctypes.c_uint64(a.nbytes)) == 0
        libs[arg].call_vec_add(ctypes.c_uint32(1), None, p(x), p(x), p(z))
        rc = rt.aclrtSynchronizeStream(None)
        for a in (x, z):
            assert rt.ptosim_unregister_memory(p(a)) == 0
        if rc == 0:
            print("ok" if (z == 2 * x).all() else "wrong result")
        else:
            print(f"{rc}: {rt.aclGetRecentErrMsg().decode()}")
"""


def case(name, steps, want, soc_env=None):
    global failures
    env = {k: v for k, v in os.environ.items() if k not in ("PTO_SIM_SOC", "PTO_SIM_CHECK")}
    if soc_env:
        env["PTO_SIM_SOC"] = soc_env
    p = subprocess.run([sys.executable, "-c", CHILD, libptosim] + steps, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    got = p.stdout.splitlines()
    if p.returncode != 0 or got != want:
        failures += 1
        print(f"FAIL {name}: exit {p.returncode}")
        for g, w in zip(got + [""] * len(want), want + [""] * len(got)):
            if g != w:
                print(f"  got:  {g}\n  want: {w}")
        sys.stdout.write(p.stderr[-2000:])
    else:
        print(f"PASS {name}")


launch_site = os.path.join(kernels, "vec_add.cpp") + ":33"


def mismatch(built, soc, soc_target, choice):
    fix = "Ascend950PR" if built == "A5" else "Ascend910B2"
    arch = "dav-c310" if soc_target == "A5" else "dav-c220"
    return (f"100000: aclrtSynchronizeStream: kernel 'vec_add<float, kRows, kCols>' launched at {launch_site}: "
            f"built for {built} but the simulated device is {soc} ({soc_target}), {choice}; a launch does not change "
            f"the SoC: set PTO_SIM_SOC={fix} (or another {built} SoC) for the process, or rebuild the kernel for "
            f"{soc_target} (--cce-aicore-arch={arch}*)")


def first(lib, target):
    return f"chosen for {lib}, the first kernel library loaded (built for {target})"


# An A5 library chooses Ascend950PR when it loads, before anything launches.
case("an A5 library chooses an A5 SoC at load", ["soc", f"load:{a5}", "soc", f"launch:{a5}", "soc"],
     ["Ascend910B2", "loaded", "Ascend950PR", "ok", "Ascend950PR"])
# The first library loaded chooses; a later one of the other target does not switch.
case("the first library loaded wins", [f"load:{a5}", f"load:{a2}", "soc", f"launch:{a2}", f"launch:{a5}"],
     ["loaded", "loaded", "Ascend950PR", mismatch("A2A3", "Ascend950PR", "A5", first(a5, "A5")), "ok"])
# A launch does not switch the SoC, also for a library loaded after it.
case("a library loaded after a launch", [f"load:{a2}", f"launch:{a2}", f"load:{a5}", "soc", f"launch:{a5}"],
     ["loaded", "ok", "loaded", "Ascend910B2", mismatch("A5", "Ascend910B2", "A2A3", first(a2, "A2A3"))])
# PTO_SIM_SOC wins over the library.
case("PTO_SIM_SOC wins", [f"load:{a5}", "soc", f"launch:{a5}"],
     ["loaded", "Ascend910B4", mismatch("A5", "Ascend910B4", "A2A3", "chosen by PTO_SIM_SOC")],
     soc_env="Ascend910B4")
# So does a runtime_camodel library (here its entry point), loaded first.
case("runtime_camodel wins", ["camodel:Ascend910_9599", f"load:{a2}", "soc", f"launch:{a2}"],
     ["0", "loaded", "Ascend950PR",
      mismatch("A2A3", "Ascend950PR", "A5", "chosen by the runtime_camodel library of Ascend910_9599")])

sys.exit(1 if failures else 0)
