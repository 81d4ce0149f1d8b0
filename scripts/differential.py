#!/usr/bin/python3
"""Differential run: pto-isa's system tests built once over ptolab's own PTO
headers and once over pto-isa's own headers (executed on ptosim's CCE
intrinsic layer), their outputs compared byte for byte.

Both runs go through scripts/conformance.py (pto-isa's runner, unmodified),
with PTOCC_PTO_HEADERS=ptolab and PTOCC_PTO_HEADERS=pto-isa, keeping every
file each testcase's binary wrote. Inputs come from the testcase's own
gen_data.py, which most testcases seed; where the inputs themselves differ
between the runs the outputs are not comparable and the table says so.

Every difference needs a verdict: which side is right and why, kept in
docs/differential-verdicts.json ("<target>/<testcase>": text) and rendered
into docs/differential.md. Usage: docs/conformance-run.md, "Differential run".
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = "/usr/bin/python3"
SIDES = ("ptolab", "pto-isa")
VERDICTS = os.path.join(REPO, "docs", "differential-verdicts.json")


def read_verdicts(path: str) -> dict:
    """The verdicts file ({"<target>/<testcase>": text}); empty when there is none."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def run_side(side: str, args) -> dict:
    work = os.path.join(args.work, side)
    os.makedirs(work, exist_ok=True)
    cmd = [PYTHON, os.path.join(REPO, "scripts", "conformance.py"), args.pto_isa, "--target", args.target,
           "--jobs", str(args.jobs), "--timeout", str(args.timeout), "--keep-outputs", os.path.join(work, "outputs"),
           "--out", os.path.join(work, "conformance.md"), "--logs", os.path.join(work, "logs")]
    if args.cases:
        cmd += ["--cases", args.cases]
    if args.root:
        cmd += ["--root", args.root]
    env = dict(os.environ, PTOCC_PTO_HEADERS=side)
    print(f"differential: {side} headers: {' '.join(cmd)}", file=sys.stderr, flush=True)
    subprocess.run(cmd, env=env, check=True)
    with open(os.path.join(work, "conformance.json")) as f:
        return json.load(f)


def digest(path: str) -> tuple[str, int]:
    with open(path, "rb") as f:
        data = f.read()
    return hashlib.sha256(data).hexdigest(), len(data)


def first_difference(a: str, b: str) -> tuple[int, int]:
    """(differing bytes, first differing offset) of two files of the same size."""
    with open(a, "rb") as f:
        x = f.read()
    with open(b, "rb") as f:
        y = f.read()
    diff = [i for i in range(len(x)) if x[i] != y[i]]
    return len(diff), (diff[0] if diff else -1)


def compare_case(work: str, target: str, testcase: str, recs: dict) -> dict:
    """One testcase: both sides' status, and each output file the same, different or missing."""
    row = {"target": target, "testcase": testcase,
           "status": {s: recs[s]["status"] if s in recs else "absent" for s in SIDES}}
    if any(s not in recs or recs[s].get("outputs") is None for s in SIDES):
        row["verdict_needed"] = row["status"]["ptolab"] != row["status"]["pto-isa"]
        row["files"] = []
        return row
    files = sorted(set(recs["ptolab"]["outputs"]) | set(recs["pto-isa"]["outputs"]))
    out = []
    for rel in files:
        paths = {s: os.path.join(work, s, "outputs", target, testcase, rel) for s in SIDES}
        have = {s: os.path.isfile(p) and rel in recs[s]["outputs"] for s, p in paths.items()}
        if not all(have.values()):
            out.append({"file": rel, "result": "only " + next(s for s in SIDES if have[s])})
            continue
        (ha, na), (hb, nb) = digest(paths["ptolab"]), digest(paths["pto-isa"])
        if ha == hb:
            out.append({"file": rel, "result": "same"})
        elif na != nb:
            out.append({"file": rel, "result": f"sizes {na} and {nb}"})
        else:
            n, at = first_difference(paths["ptolab"], paths["pto-isa"])
            out.append({"file": rel, "result": f"{n} of {na} bytes differ, first at byte {at}"})
    row["files"] = out
    row["verdict_needed"] = (row["status"]["ptolab"] != row["status"]["pto-isa"]
                             or any(f["result"] != "same" for f in out))
    return row


def compare(work: str, docs: dict) -> list[dict]:
    by_side = {s: {(r["target"], r["testcase"]): r for r in docs[s]["results"]} for s in SIDES}
    keys = sorted(set(by_side["ptolab"]) | set(by_side["pto-isa"]))
    rows = [compare_case(work, t, c, {s: by_side[s][(t, c)] for s in SIDES if (t, c) in by_side[s]})
            for t, c in keys]
    # A testcase named in --cases that the runner does not take (its directory is not in the suite's list) is
    # run on neither side: its row says so, with the reason, instead of silently missing from the table.
    skipped = {(k["target"], k["testcase"]): k["reason"] for k in docs["pto-isa"].get("skipped") or []}
    return rows + [{"target": t, "testcase": c, "status": {s: "not-run" for s in SIDES}, "files": [],
                    "not_run": reason, "verdict_needed": False} for (t, c), reason in sorted(skipped.items())
                   if (t, c) not in set(keys)]


def render(doc: dict, verdicts: dict) -> str:
    not_run = [r for r in doc["rows"] if r.get("not_run")]
    rows = [r for r in doc["rows"] if not r.get("not_run")]
    same = [r for r in rows if not r["verdict_needed"]]
    differ = [r for r in rows if r["verdict_needed"]]
    lines = [
        "# Differential run: ptolab's PTO headers against pto-isa's own",
        "",
        "**ptosim only, not an NPU.** Each pto-isa system testcase was built twice by ptocc — over ptolab's own "
        "tile-level headers (`PTOCC_PTO_HEADERS=ptolab`) and over pto-isa's own headers on ptosim's CCE intrinsic "
        "layer (`PTOCC_PTO_HEADERS=pto-isa`) — and run through pto-isa's runner; every file the testcase's binary "
        "wrote is compared byte for byte. Generated by `scripts/differential.py`; how to run it: "
        "[conformance-run.md](conformance-run.md#differential-run).",
        "",
        f"- pto-isa commit: `{doc['pto_isa'].get('commit', '?')}`",
        f"- Command: `{doc['command']}`",
        f"- Date: {doc['date']}",
        f"- Testcases compared: {len(rows)}; the same status and byte-identical outputs: {len(same)}; "
        f"with a difference: {len(differ)} ({sum(1 for r in differ if (r['target'] + '/' + r['testcase']) in verdicts)} "
        "with a verdict)" + (f"; named but run on neither side: {len(not_run)}" if not_run else ""),
        "",
        "## Differences and their verdicts",
        "",
        "| testcase | ptolab headers | pto-isa headers | outputs | verdict |",
        "|---|---|---|---|---|",
    ]
    for r in differ:
        key = f"{r['target']}/{r['testcase']}"
        files = [f"{f['file']}: {f['result']}" for f in r["files"] if f["result"] != "same"]
        shown = "; ".join(files[:3]) + (f"; and {len(files) - 3} more" if len(files) > 3 else "")
        lines.append(f"| {key} | {r['status']['ptolab']} | {r['status']['pto-isa']} | {shown or '—'} | "
                     f"{verdicts.get(key, '**no verdict yet**')} |")
    lines += ["", "## The same on both sides", "",
              ", ".join(f"{r['target']}/{r['testcase']} ({r['status']['ptolab']}, "
                        f"{len(r['files'])} files)" for r in same) or "none", ""]
    if not_run:
        lines += ["## Run on neither side", ""]
        for r in not_run:
            key = f"{r['target']}/{r['testcase']}"
            lines.append(f"- {key}: {r['not_run']}." + (f" {verdicts[key]}" if key in verdicts else ""))
        lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("pto_isa", nargs="?", help="pto-isa checkout")
    p.add_argument("--target", choices=["a2a3", "a5", "both"], default="a2a3")
    p.add_argument("--cases", help="comma-separated testcases (default: the whole suite)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--timeout", type=float, default=1200)
    p.add_argument("--root", help="CANN-shaped root (conformance.py's default otherwise)")
    p.add_argument("--work", default=os.path.join(os.environ.get("PTOLAB_BUILD_DIR", os.path.join(REPO, "build")),
                                                  "differential"), help="where both runs keep logs and outputs")
    p.add_argument("--out", default=os.path.join(REPO, "docs", "differential.md"))
    p.add_argument("--verdicts", default=VERDICTS)
    p.add_argument("--from-json", metavar="JSON", help="render from a recorded comparison; run nothing")
    args = p.parse_args(argv)
    json_path = os.path.splitext(args.out)[0] + ".json"
    if args.from_json:
        with open(args.from_json) as f:
            doc = json.load(f)
    else:
        if not args.pto_isa:
            p.error("a pto-isa checkout is required unless --from-json is given")
        args.pto_isa = os.path.abspath(args.pto_isa)
        args.work = os.path.abspath(args.work)
        # Before the runs, which take long: their results must find a place.
        os.makedirs(os.path.dirname(os.path.abspath(json_path)), exist_ok=True)
        docs = {s: run_side(s, args) for s in SIDES}
        doc = {"pto_isa": docs["pto-isa"]["pto_isa"], "date": docs["pto-isa"]["date"],
               "command": "scripts/differential.py " + " ".join(argv if argv is not None else sys.argv[1:]),
               "rows": compare(args.work, docs)}
        with open(json_path, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
    verdicts = read_verdicts(args.verdicts)
    with open(args.out, "w") as f:
        f.write(render(doc, verdicts))
    print(f"differential: wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
