#!/usr/bin/python3
"""ctest conformance_sweep_shards: a few pto-isa testcases as a 2-shard `ptolab sweep --conformance`,
merged, equal case by case to the unsharded sweep, and conformance.md rendered from the merge.

Skipped (exit 77) unless PTO_ISA_ROOT names a pto-isa checkout. Set
PTO_ISA_CONFORMANCE_SWEEP_CASES (default tadd,tsub,tabs,texp) to pick others."""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from ptolab.sweep.report import comparable  # noqa: E402

sys.path.insert(0, HERE)
from run_pto_isa_conformance import OUTCOMES, SCRIPT, setup  # noqa: E402

CLI = os.environ.get("PTOLAB_CLI", "ptolab")


def run(cmd: list[str], env: dict) -> None:
    print("+ " + " ".join(cmd), flush=True)
    rc = subprocess.call(cmd, env=env)
    assert rc == 0, f"{cmd[0]} {cmd[1]} exited with {rc}"


def report(path: str) -> dict:
    with open(os.path.join(path, "sweep.json")) as f:
        return json.load(f)


def main() -> int:
    ready = setup("PTO_ISA_CONFORMANCE_SWEEP_CASES", "tadd,tsub,tabs,texp")
    if ready is None:
        return 77
    args, pto_isa, cases = ready
    # The cases' private copies go under TMPDIR; a stable path here keeps ptocc's cache entries valid between runs.
    env = dict(os.environ, TMPDIR=args.work)
    out = lambda name: os.path.join(args.work, name)  # noqa: E731
    common = [CLI, "sweep", "--conformance", pto_isa, "--target", "a2a3", "--cases", ",".join(cases),
              "--root", args.root, "--timeout", "1200", "--no-fail"]
    run(common + ["--out", out("whole"), "--jobs", "2"], env)
    for i in (1, 2):
        run(common + ["--out", out(f"shard{i}"), "--shard", f"{i}/2", "--durations", out("whole"), "--jobs", "1"],
            env)
    shard_cases = [report(out(f"shard{i}"))["cases"] for i in (1, 2)]
    assert all(shard_cases) and sorted(shard_cases[0] + shard_cases[1]) == sorted(f"a2a3:{c}" for c in cases), \
        shard_cases
    run([CLI, "sweep", "merge", out("shard1"), out("shard2"), "--out", out("merged")], env)
    run([CLI, "sweep", "diff", out("whole"), out("merged")], env)

    whole, merged = report(out("whole")), report(out("merged"))
    assert [r["id"] for r in merged["results"]] == sorted(f"a2a3:{c}" for c in cases)
    for a, b in zip(whole["results"], merged["results"]):
        assert comparable(a) == comparable(b), (a["id"], comparable(a), comparable(b))
        rec = b["record"]
        assert rec["status"] in OUTCOMES, (b["id"], rec["status"], rec.get("detail"))
        print(f"{b['id']}: {rec['status']}, gtest {rec['gtest_passed']}/{rec['gtest_total']}")

    md = out("conformance.md")
    run([sys.executable, SCRIPT, "--from-sweep", out("merged"), "--out", md], env)
    with open(out("conformance.json")) as f:
        doc = json.load(f)
    assert doc["shards"] == 2
    assert [(r["testcase"], r["status"], r["gtest_passed"], r["gtest_total"]) for r in doc["results"]] == \
        [(r["record"]["testcase"], r["record"]["status"], r["record"]["gtest_passed"], r["record"]["gtest_total"])
         for r in merged["results"]]
    with open(md) as f:
        text = f.read()
    assert "not an NPU" in text and "2 shards merged" in text
    for r in doc["results"]:
        assert f"\n| {r['testcase']} | {r['status']} |" in text, r["testcase"]
    return 0


if __name__ == "__main__":
    sys.exit(main())
