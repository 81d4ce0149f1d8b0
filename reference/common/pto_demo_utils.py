"""Shared plumbing of the reference runners: finds the ptolab package, builds a
directory's kernels through its compile.sh, prints one PASS/FAIL line
per case and writes the JSON result the smoke run and `ptolab log` read.

Kept small on purpose: a developer copying an example should be able to read
everything a runner depends on in one sitting."""
import argparse
import ctypes
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REFERENCE = Path(__file__).resolve().parent.parent
REPO = REFERENCE.parent


def _import_ptolab():
    try:
        import ptolab  # noqa: F401  (an installed package wins)
    except ImportError:
        # In a source checkout the package lives in the CMake build tree.
        build = Path(os.environ.get("PTOLAB_BUILD_DIR", REPO / "build"))
        sys.path.insert(0, str(build / "python"))
    import ptolab
    return ptolab


def use_target(target):
    """Selects the simulated SoC before the first launch (the process keeps it).
    A5 kernels need an A5 profile; an explicit PTO_SIM_SOC is respected."""
    if target == "a5":
        os.environ.setdefault("PTO_SIM_SOC", "Ascend950PR")
    else:
        os.environ.setdefault("PTO_SIM_SOC", "Ascend910B2")
    return _import_ptolab()


def build(directory):
    """Runs the directory's compile.sh (in a checkout with a build, that build's
    no-op when nothing changed) and returns the directory holding the libraries."""
    directory = Path(directory).resolve()
    out = Path(os.environ.get("PTO_REF_OUT", directory / "build"))
    proc = subprocess.run(["bash", str(directory / "compile.sh")], cwd=directory, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout)
        print(f"FAIL compile {directory.name}: compile.sh exited {proc.returncode}")
        sys.exit(1)
    return out


def load(libdir, name):
    return ctypes.CDLL(str(Path(libdir) / f"lib{name}.so"))


def arg_parser(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--json", metavar="FILE", help="write the per-case results as JSON")
    p.add_argument("--kernel", action="append", help="run only this kernel (repeatable)")
    return p


class Results:
    """Collects cases; each prints exactly one PASS or FAIL line."""

    def __init__(self, runner, launch_path):
        self.runner = runner
        self.launch_path = launch_path
        self.cases = []

    def check(self, name, fn):
        global _case
        _case = name
        started = time.perf_counter()
        try:
            detail = fn() or {}
            ok, message = True, ""
        except AssertionError as e:
            ok, message, detail = False, str(e), {}
        except Exception as e:  # a fault or deadlock report is a failed case, not a crash of the runner
            ok, message, detail = False, f"{type(e).__name__}: {e}", {}
        elapsed = time.perf_counter() - started
        entry = {"case": name, "passed": ok, "host_seconds": round(elapsed, 4)}
        entry.update({k: v for k, v in detail.items() if isinstance(v, (int, float, str, bool))})
        if message:
            entry["error"] = message
        self.cases.append(entry)
        if ok:
            print(f"PASS {name}", flush=True)
        else:
            print(f"FAIL {name}\n{message}", flush=True)
        return ok

    def finish(self, json_path):
        ptolab = sys.modules.get("ptolab")
        passed = all(c["passed"] for c in self.cases) and bool(self.cases)
        doc = {
            "runner": self.runner,
            "launch_path": self.launch_path,
            "device": "simulator (ptosim)" if ptolab is None or ptolab.is_simulator_mode() else "npu",
            "soc": ptolab.soc_name() if ptolab else None,
            "passed": passed,
            "cases": self.cases,
        }
        if json_path:
            Path(json_path).write_text(json.dumps(doc, indent=2) + "\n")
        return 0 if passed else 1


_case = None  # the case Results.check runs, named in PTO_REF_DUMP's files
_dumped = {}


def _dump(ptolab, actual):
    """With PTO_REF_DUMP=<dir>, keeps the bytes each check looked at, as
    <dir>/<case>[.<n>].bin: scripts/differential_cookbook.py compares two
    builds of the cookbook by them."""
    where = os.environ.get("PTO_REF_DUMP")
    if not where or _case is None:
        return
    import numpy as np
    data = actual.numpy() if hasattr(actual, "numpy") else np.asarray(actual)
    n = _dumped.get(_case, 0)
    _dumped[_case] = n + 1
    stem = "".join(c if c.isalnum() or c in "._-" else "_" for c in _case) + (f".{n}" if n else "")
    Path(where).mkdir(parents=True, exist_ok=True)
    (Path(where) / f"{stem}.bin").write_bytes(np.ascontiguousarray(data).tobytes())


def compare(ptolab, actual, expected, dtype):
    """The seed's tolerance for `dtype` through ptolab.assert_close; returns the figures."""
    _dump(ptolab, actual)
    rep = ptolab.assert_close(actual, expected, name=dtype)
    return {"dtype": rep["dtype"], "rtol": rep["rtol"], "atol": rep["atol"], "max_abs_err": rep["max_abs_err"],
            "relative_rmse": rep["relative_rmse"]}


def exact_inputs(rng, shape, scale=8, span=4):
    """Multiples of 1/scale in [-span, span]: products and partial sums of a
    matmul are then exact in fp32, so the check does not depend on the Cube's
    summation order, which is not documented."""
    import numpy as np
    return (rng.integers(-span * scale, span * scale + 1, size=shape) / scale).astype(np.float16)
