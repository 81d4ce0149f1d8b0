#!/usr/bin/env python3
"""Installs this package with pip into ../build/pkg (no network, no build
isolation; skipped when the install is newer than its inputs), then runs the
static cases through the installed module `pto_static_a5`."""
import importlib
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DIR = HERE.parent
sys.path.insert(0, str(DIR.parents[1] / "common"))
sys.path.insert(0, str(DIR))
import pto_demo_utils as utils  # noqa: E402


def install(libdir):
    target = libdir / "pkg"
    stamp = target / ".installed"
    inputs = [HERE / "setup.py", HERE / "pyproject.toml", DIR / "pybind_module.cpp"] + \
        [libdir / f"lib{n}.so" for n in ("add", "matmul", "matmul_add")]
    if stamp.exists() and all(p.stat().st_mtime <= stamp.stat().st_mtime for p in inputs):
        return target
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps", "--no-index",
           "--upgrade", "--target", str(target), str(HERE)]
    env = dict(os.environ, PTO_REF_OUT=str(libdir))
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    if proc.returncode != 0:
        print(proc.stdout)
        print(f"FAIL pybind_package install: {' '.join(cmd)}")
        sys.exit(1)
    stamp.touch()
    return target


def main():
    args = utils.arg_parser(__doc__).parse_args()
    ptolab = utils.use_target("a5")
    libdir = utils.build(DIR)
    sys.path.insert(0, str(install(libdir)))
    module = importlib.import_module("pto_static_a5")
    import cases
    from run_pybind import PybindLauncher
    results = utils.Results("static_single_core/a5/pybind_package/run_package.py", "pybind (pip package)")
    cases.run_all(ptolab, utils, results, PybindLauncher(module), "static/a5 pip-package", args.kernel)
    return results.finish(args.json)


if __name__ == "__main__":
    sys.exit(main())
