#!/usr/bin/python3
"""ctest pto_isa_conformance: scripts/conformance.py on two small a2a3 testcases.

Skipped (exit 77) unless PTO_ISA_ROOT names a pto-isa checkout. Checks that
the run completes and reports each testcase with a parsed outcome; it does not
require the testcases to pass (docs/conformance.md records how they fare).
Set PTO_ISA_CONFORMANCE_CASES (default tadd,tsub) to pick others.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "conformance.py")
OUTCOMES = {"pass", "fail", "fault", "crash", "timeout", "compile-error", "gen-data-failed", "not-runnable"}


def setup(cases_variable: str, default_cases: str):
    """(--root/--work arguments, the pto-isa checkout, testcases), or None when
    PTO_ISA_ROOT is unset (the caller skips). Shared with sweep_shards.py."""
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    p.add_argument("--work", required=True)
    args = p.parse_args()
    pto_isa = os.environ.get("PTO_ISA_ROOT")
    if not pto_isa:
        print("PTO_ISA_ROOT is not set: skipped (point it at a pto-isa checkout to run this test)")
        return None
    os.makedirs(args.work, exist_ok=True)
    return args, pto_isa, os.environ.get(cases_variable, default_cases).split(",")


def main():
    ready = setup("PTO_ISA_CONFORMANCE_CASES", "tadd,tsub")
    if ready is None:
        return 77
    args, pto_isa, cases = ready
    out = os.path.join(args.work, "conformance.md")
    cmd = [sys.executable, SCRIPT, pto_isa, "--target", "a2a3", "--cases", ",".join(cases),
           "--root", args.root, "--timeout", "1200", "--out", out, "--logs", os.path.join(args.work, "logs")]
    print("+ " + " ".join(cmd), flush=True)
    rc = subprocess.call(cmd)
    assert rc == 0, f"conformance.py exited with {rc}"
    with open(os.path.join(args.work, "conformance.json")) as f:
        doc = json.load(f)
    got = {r["testcase"]: r for r in doc["results"]}
    assert sorted(got) == sorted(cases), sorted(got)
    for c in cases:
        r = got[c]
        assert r["status"] in OUTCOMES, (c, r["status"], r.get("detail"))
        assert os.path.exists(r["log"]), r["log"]
    with open(out) as f:
        md = f.read()
    assert "not an NPU" in md
    for c in cases:
        assert f"\n| {c} | {got[c]['status']} |" in md
        print(f"{c}: {got[c]['status']} {got[c].get('detail') or ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
