#!/usr/bin/python3
"""Differential run of the cookbook: every A2A3 kernel of reference/ built
twice by ptocc — over ptolab's own PTO headers and over a pto-isa checkout's
own headers, executed on ptosim's CCE intrinsic layer (PTO_LIB_PATH names the
checkout, as the seed's compile.sh scripts take it) — and run through the
cookbook's own runners; the output of every check is compared byte for byte.

The runners check each output against NumPy with the seed's tolerances;
with PTO_REF_DUMP=<dir> reference/common/pto_demo_utils.py also keeps the
bytes each check looked at (<dir>/<case>.bin). Both runs use the same seeded
inputs, so any byte that differs is a difference of the two implementations.

    scripts/differential_cookbook.py /path/to/pto-isa            # run both sides, write the page
    scripts/differential_cookbook.py --from-json FILE            # re-render only

Writes docs/differential-cookbook.md and its .json; a difference needs a
verdict in docs/differential-verdicts.json ("cookbook/<case>": text).
Usage: docs/conformance-run.md, "Differential run".
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import PYTHON, REPO, VERDICTS, read_verdicts  # noqa: E402
# The cookbook's A2A3 runners: (directory under reference/, runner script).
# The A5 runners are not compared yet.
RUNNERS = [
    ("static_single_core/a2a3", "run_ctypes.py"),
    ("dynamic_multi_core/a2a3", "run_ctypes.py"),
    ("dynamic_multi_core/a2a3", "run_mix.py"),
]


def run_side(side: str, pto_isa: str, work: str) -> dict:
    """Runs every runner with one header choice; returns {runner: {case: passed}} and the dump directory."""
    results = {}
    for directory, script in RUNNERS:
        key = f"{directory}/{script}"
        out = os.path.join(work, side, directory.replace("/", "_") + "_" + os.path.splitext(script)[0])
        env = dict(os.environ, PTO_REF_OUT=os.path.join(out, "build"), PTO_REF_DUMP=os.path.join(out, "dump"),
                   PTOCC_PTO_HEADERS=side, PTO_REF_SKIP_PYBIND="1")
        if side == "pto-isa":
            env["PTO_LIB_PATH"] = pto_isa
        else:
            env.pop("PTO_LIB_PATH", None)
        report = os.path.join(out, "results.json")
        cmd = [PYTHON, os.path.join(REPO, "reference", directory, script), "--json", report]
        print(f"differential_cookbook: {side} headers: {' '.join(cmd)}", file=sys.stderr, flush=True)
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        with open(os.path.join(out, "runner.log"), "w") as f:
            f.write(proc.stdout)
        cases = {}
        if os.path.exists(report):
            with open(report) as f:
                cases = {c["case"]: c["passed"] for c in json.load(f)["cases"]}
        results[key] = {"exit": proc.returncode, "cases": cases, "dump": os.path.join(out, "dump")}
    return results


def compare(ptolab: dict, pto_isa: dict) -> list[dict]:
    rows = []
    for key in sorted(set(ptolab) | set(pto_isa)):
        a, b = ptolab.get(key, {}), pto_isa.get(key, {})
        ca, cb = a.get("cases", {}), b.get("cases", {})
        for case in sorted(set(ca) | set(cb)):
            row = {"runner": key, "case": case, "ptolab": ca.get(case), "pto-isa": cb.get(case), "files": []}
            da, db = a.get("dump", ""), b.get("dump", "")
            stem = "".join(c if c.isalnum() or c in "._-" else "_" for c in case)
            names = sorted({n for d in (da, db) if os.path.isdir(d) for n in os.listdir(d)
                            if n == f"{stem}.bin" or n.startswith(f"{stem}.")})
            for n in names:
                pa, pb = os.path.join(da, n), os.path.join(db, n)
                if not (os.path.exists(pa) and os.path.exists(pb)):
                    row["files"].append({"file": n, "same": False, "detail": "only one side wrote it"})
                    continue
                with open(pa, "rb") as f:
                    x = f.read()
                with open(pb, "rb") as f:
                    y = f.read()
                diff = sum(1 for i in range(min(len(x), len(y))) if x[i] != y[i]) + abs(len(x) - len(y))
                row["files"].append({"file": n, "bytes": len(x), "same": x == y,
                                     "detail": "" if x == y else f"{diff} of {max(len(x), len(y))} bytes differ"})
            rows.append(row)
    return rows


def render(doc: dict, verdicts: dict) -> str:
    rows = doc["rows"]
    same = [r for r in rows if r["ptolab"] == r["pto-isa"] and r["files"] and all(f["same"] for f in r["files"])]
    differ = [r for r in rows if r not in same]
    out = ["# Differential run of the cookbook: ptolab's PTO headers against pto-isa's own", "",
           "**ptosim only, not an NPU.** Each A2A3 kernel of the cookbook (`reference/`) was built twice by ptocc — "
           "over ptolab's own tile-level headers and over pto-isa's own headers executed on ptosim's CCE intrinsic "
           "layer (`PTO_LIB_PATH` naming the checkout) — and run through the cookbook's own runners, which check "
           "each output against NumPy; the bytes each check looked at are compared. Generated by "
           "`scripts/differential_cookbook.py`; how to run it: "
           "[conformance-run.md](conformance-run.md#differential-run). The pto-isa testcases' differential is "
           "[differential.md](differential.md).", "",
           f"- pto-isa: `{doc['pto_isa']}` (commit `{doc['pto_isa_commit']}`)",
           f"- ptolab commit: `{doc['ptolab_commit']}`",
           f"- Date: {doc['date']}",
           f"- Runners: {', '.join('`reference/' + k + '`' for k in doc['runners'])}",
           f"- Checks compared: {len(rows)}; the same result and byte-identical outputs: {len(same)}; "
           f"with a difference: {len(differ)}", ""]
    if differ:
        out += ["## Differences and their verdicts", "", "| case | ptolab headers | pto-isa headers | outputs | verdict |",
                "|---|---|---|---|---|"]
        for r in differ:
            files = "; ".join(f"{f['file']}: {f['detail']}" for f in r["files"] if not f["same"]) or "no output kept"
            verdict = verdicts.get(f"cookbook/{r['case']}", "**no verdict yet**")
            out.append(f"| {r['case']} | {r['ptolab']} | {r['pto-isa']} | {files} | {verdict} |")
        out.append("")
    out += ["## The same on both sides", "",
            ", ".join(f"{r['case']} ({sum(f['bytes'] for f in r['files'])} bytes)" for r in same) or "none", ""]
    return "\n".join(out)


def git_commit(path: str) -> str:
    try:
        return subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("pto_isa", nargs="?", help="pto-isa checkout")
    p.add_argument("--work", default=os.path.join(os.environ.get("PTOLAB_BUILD_DIR", os.path.join(REPO, "build")),
                                                  "differential-cookbook"))
    p.add_argument("--out", default=os.path.join(REPO, "docs", "differential-cookbook.md"))
    p.add_argument("--verdicts", default=VERDICTS)
    p.add_argument("--from-json", metavar="JSON", help="render from a recorded comparison; run nothing")
    args = p.parse_args()
    json_out = os.path.splitext(args.out)[0] + ".json"
    if args.from_json:
        with open(args.from_json) as f:
            doc = json.load(f)
    else:
        if not args.pto_isa or not os.path.isdir(os.path.join(args.pto_isa, "include", "pto", "npu", "a2a3")):
            print("differential_cookbook: give a pto-isa checkout (one with include/pto/npu/a2a3)", file=sys.stderr)
            return 2
        pto_isa = os.path.abspath(args.pto_isa)
        sides = {side: run_side(side, pto_isa, args.work) for side in ("ptolab", "pto-isa")}
        doc = {"pto_isa": pto_isa, "pto_isa_commit": git_commit(pto_isa), "ptolab_commit": git_commit(REPO),
               "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
               "runners": [f"{d}/{s}" for d, s in RUNNERS],
               "rows": compare(sides["ptolab"], sides["pto-isa"])}
        with open(json_out, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    verdicts = read_verdicts(args.verdicts)
    with open(args.out, "w") as f:
        f.write(render(doc, verdicts))
    missing = [r["case"] for r in doc["rows"]
               if not (r["ptolab"] == r["pto-isa"] and r["files"] and all(x["same"] for x in r["files"]))
               and f"cookbook/{r['case']}" not in verdicts]
    print(f"differential_cookbook: {len(doc['rows'])} checks; wrote {args.out}"
          + (f"; no verdict yet for {', '.join(missing)}" if missing else ""), file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
