#!/usr/bin/env python3
"""Runs every fenced ```sh block of reference/**/README.md as written, in the
README's directory, each under a whole-process timeout, and fails if any
block fails. Blocks meant for other hosts are fenced ```sh npu (or any info
string other than exactly `sh`) and are listed, not run.

  python3 reference/check_readme_commands.py [--list] [--timeout S]"""
import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REF = Path(__file__).resolve().parent
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```\s*$", re.S | re.M)


def blocks(readme):
    for m in FENCE.finditer(readme.read_text()):
        info, body = m.group(1).strip(), m.group(2)
        line = readme.read_text()[:m.start()].count("\n") + 1
        yield info, body, line


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--list", action="store_true")
    p.add_argument("--timeout", type=float, default=float(os.environ.get("PTO_PROCESS_TIMEOUT_S", 600)))
    args = p.parse_args()
    failures = ran = 0
    env = dict(os.environ)
    # The READMEs say `python3` and mean an interpreter with NumPy; put one first on PATH.
    py = env.get("PTO_PYTHON") or ("/usr/bin/python3" if Path("/usr/bin/python3").exists() else None)
    if py:
        shim = Path(os.environ.get("TMPDIR", "/tmp")) / f"pto-readme-python-{os.getuid()}"
        shim.mkdir(exist_ok=True)
        link = shim / "python3"
        if not link.exists():
            link.symlink_to(py)
        env["PATH"] = f"{shim}{os.pathsep}{env.get('PATH', '')}"
    # Each block under the whole-process timeout: `ptolab run` when it is
    # built, else coreutils timeout; both end every process the block started
    # and exit 124.
    cli = Path(os.environ.get("PTOLAB_BUILD_DIR", REF.parent / "build")) / "src" / "lab" / "ptolab"
    if os.access(cli, os.X_OK):
        limited = [str(cli), "run", "--timeout", f"{args.timeout:g}", "--"]
    else:
        limited = ["timeout", "-k", os.environ.get("PTO_PROCESS_KILL_AFTER_S", "10"), f"{args.timeout:g}"]
    for readme in sorted(REF.rglob("README.md")):
        if "build" in readme.relative_to(REF).parts:
            continue
        rel = readme.relative_to(REF.parent)
        for info, body, line in blocks(readme):
            where = f"{rel}:{line}"
            if info != "sh":
                if info.startswith("sh"):
                    print(f"SKIP {where} (```{info}: not for this host)")
                continue
            if args.list:
                print(f"RUN  {where}\n{body}")
                continue
            started = time.perf_counter()
            proc = subprocess.run(limited + ["bash", "-euo", "pipefail", "-c", body], cwd=readme.parent, env=env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True)
            status, out = proc.returncode, proc.stdout
            ran += 1
            dt = time.perf_counter() - started
            first = body.strip().splitlines()[0] if body.strip() else ""
            if status == 0:
                print(f"PASS {where} ({dt:.1f} s): {first}")
            else:
                failures += 1
                print(f"FAIL {where} (exit status {status}, {dt:.1f} s): {first}\n{out[-3000:]}")
    if not args.list:
        print(f"SUMMARY {'PASS' if failures == 0 else 'FAIL'}: {ran} README blocks run, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
