#!/usr/bin/python3
"""Per-case overhead of ptolab sweep: N cases of `sleep T` run one after the
other directly, then through `ptolab sweep --jobs 1` (process start, timeout
guard, log capture, JSON report rewritten after each case). Prints the
overhead per case and its ratio to T and to the median testcase time of the
recorded conformance run (docs/conformance.json). Target: at most 5 %.

Usage: bench/sweep_overhead.py [PTOLAB_CLI] [N] [T] [EXECUTOR]"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "build", "src", "lab", "ptolab")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    t = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    executor = sys.argv[4] if len(sys.argv) > 4 else "local:1"
    with tempfile.TemporaryDirectory(prefix="ptolab-sweep-bench-") as tmp:
        cases = os.path.join(tmp, "cases.txt")
        with open(cases, "w") as f:
            f.writelines(f"c{i:03d} sleep {t:g}\n" for i in range(n))
        start = time.monotonic()
        for _ in range(n):
            subprocess.run(["/bin/sh", "-c", f"sleep {t:g}"], check=True)
        direct = time.monotonic() - start
        start = time.monotonic()
        subprocess.run([cli, "sweep", "--list", cases, "--out", os.path.join(tmp, "r"), "--executor", executor,
                        "--quiet"], check=True)
        swept = time.monotonic() - start
    per_case = (swept - direct) / n
    print(f"{n} cases of sleep {t:g}: direct {direct:.2f} s, ptolab sweep ({executor}) {swept:.2f} s")
    print(f"overhead per case: {per_case * 1000:.1f} ms = {100 * per_case / t:.2f} % of the case ({t:g} s)")
    recorded = os.path.join(HERE, "..", "docs", "conformance.json")
    if os.path.exists(recorded):
        with open(recorded) as f:
            median = statistics.median(r["seconds"] for r in json.load(f)["results"])
        print(f"median conformance testcase: {median:g} s; overhead {100 * per_case / median:.2f} % of it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
