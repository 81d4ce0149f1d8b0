#!/usr/bin/python3
"""Results of pto-isa's communication suite on ptosim: parse, record, render.

``scripts/conformance_comm.sh`` runs pto-isa's ``tests/run_comm_test.sh`` and
calls ``summarize`` on its log: the per-testcase, per-rank-count table it
prints, and with ``--record JSON`` the same results merged into the recorded
file (``docs/conformance-comm.json``), which ``render`` turns into
``docs/conformance-comm.md``. The recorded file keeps one block per pto-isa
commit, target, header choice and window transport; a later run of some
testcases replaces theirs in that block and keeps the rest, with its command
and date listed.

How to read the results: docs/many-devices.md, "pto-isa's comm suite".
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys

FORMAT = 1
RANK_COUNTS = (2, 4, 8)

ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")
TESTCASE_RE = re.compile(r"\[INFO\] Running testcase: (\S+)\s+\(nranks=(\d+)")
MPIRUN_RE = re.compile(r"run command: \S*mpirun -n (\d+) ")
PASSED_RE = re.compile(r"\[  PASSED  \] (\d+) tests?\.")
SKIPPED_RE = re.compile(r"\[  SKIPPED \] (\d+) tests?,")
FAILED_RE = re.compile(r"\[  FAILED  \] (\S+\.\S+)")


def parse_log(lines) -> list[dict]:
    """One record per run of a testcase at a rank count, from run_comm_test.sh's output.

    A run at N ranks is one or more mpirun invocations (newer run_st.py also
    runs every lower rank count first, and the CCU tests one invocation per
    case): the gtest cases counted are those of its invocations at N ranks,
    in each the fewest any rank passed (every rank prints its own count).
    """
    runs: list[dict] = []
    cur = None
    level = 0
    inv = None

    def close_invocation():
        if cur is not None and inv is not None and level == cur["ranks"]:
            cur["passed"] += min(inv) if inv else 0

    for line in lines:
        # Open MPI forwards the ranks' output through a terminal, so gtest colours it.
        line = ANSI_RE.sub("", line)
        m = TESTCASE_RE.search(line)
        if m:
            close_invocation()
            inv = None
            cur = {"testcase": m.group(1), "ranks": int(m.group(2)), "passed": 0, "skipped": 0,
                   "failed": [], "ok": True}
            runs.append(cur)
            continue
        if cur is None:
            continue
        m = MPIRUN_RE.search(line)
        if m:
            close_invocation()
            level, inv = int(m.group(1)), []
            continue
        if "[ERROR] Testcase failed:" in line:
            cur["ok"] = False
        for m in PASSED_RE.finditer(line):
            if inv is not None:
                inv.append(int(m.group(1)))
        for m in SKIPPED_RE.finditer(line):
            cur["skipped"] = max(cur["skipped"], int(m.group(1)))
        for m in FAILED_RE.finditer(line):
            if m.group(1) not in cur["failed"]:
                cur["failed"].append(m.group(1))
    close_invocation()
    for r in runs:
        r["failed"].sort()
    return runs


def summary_text(runs, *, commit: str, target: str, headers: str, ranks: int, rc: int, secs: int) -> str:
    """The Markdown table conformance_comm.sh prints after a run."""
    ok_runs = sum(r["ok"] for r in runs)
    lines = [f"pto-isa {commit[:8]}, {target}, {headers} headers, up to {ranks} ranks: {ok_runs} of {len(runs)} runs "
             f"passed (run_comm_test.sh exit {rc}, {secs} s)", "",
             "| Testcase | Ranks | Result | gtest cases passed at that rank count (each on every rank) | Failed cases |",
             "|----------|------:|--------|------:|--------------|"]
    for r in runs:
        lines.append(f"| {r['testcase']} | {r['ranks']} | {'pass' if r['ok'] else 'FAIL'} | {r['passed']} | "
                     f"{', '.join(r['failed'])} |")
    return "\n".join(lines) + "\n"


def launcher(b: dict) -> str:
    """Whose mpirun started the ranks: MPICH's (every block recorded before there was a choice), or Open MPI's."""
    return b.get("launcher", "mpich")


def block_key(b: dict) -> tuple:
    return (b["pto_isa"], b["target"], b["headers"], b["transport"], launcher(b))


def merge(doc: dict, run: dict) -> dict:
    """`doc` with `run`'s records in place of the same testcase and rank count of the same block."""
    doc.setdefault("format", FORMAT)
    blocks = doc.setdefault("blocks", [])
    key = block_key(run)
    block = next((b for b in blocks if block_key(b) == key), None)
    if block is None:
        block = {k: run[k] for k in ("pto_isa", "pto_isa_date", "target", "headers", "transport")}
        if launcher(run) != "mpich":
            block["launcher"] = launcher(run)
        block["results"], block["runs"] = [], []
        blocks.append(block)
    index = len(block["runs"])
    block["runs"].append({k: run[k] for k in ("command", "date", "ptolab", "seconds", "exit", "mpi")})
    fresh = {(r["testcase"], r["ranks"]): dict(r, run=index) for r in run["results"]}
    block["results"] = [fresh.pop((r["testcase"], r["ranks"]), r) for r in block["results"]] + list(fresh.values())
    block["results"].sort(key=lambda r: (r["testcase"], r["ranks"]))
    blocks.sort(key=lambda b: (b["pto_isa_date"], b["target"], b["headers"], b["transport"], launcher(b)))
    return doc


TRANSPORTS = {"shm": "shared memory", "mpi": "MPI one-sided (the inter-host transport, forced)"}
LAUNCHERS = {"mpich": "MPICH", "openmpi": "Open MPI (the tests' MPICH calls through libptolab_mpich_abi)"}


def render(doc: dict) -> str:
    out = ["# pto-isa's communication suite on ptosim", "",
           "<!-- Generated by scripts/conformance_comm.py render from docs/conformance-comm.json; "
           "do not edit by hand. -->", "",
           "pto-isa's own `tests/run_comm_test.sh`, unmodified, every testcase at 2, 4 and 8 ranks "
           "(each rank a process with one simulated device, started by MPICH's `mpirun` or, where the "
           "MPI column says so, Open MPI's), run by "
           "`scripts/conformance_comm.sh`. A cell is the number of gtest cases that passed on every "
           "rank of that run (0: the run selects no case written for that rank count, as on a device), "
           "or FAIL with the failing cases below the table. How the runs are made and what each "
           "failure means: [many-devices.md](many-devices.md#pto-isas-comm-suite). Nothing here ran on "
           "an NPU.", ""]
    out.append("| pto-isa | Target | Headers | Transport | MPI | Runs passed | gtest cases passed |")
    out.append("|---|---|---|---|---|--:|--:|")
    for b in doc["blocks"]:
        ok = sum(r["ok"] for r in b["results"])
        cases = sum(r["passed"] for r in b["results"] if r["ok"])
        out.append(f"| {b['pto_isa'][:8]} ({b['pto_isa_date'][:10]}) | {b['target']} | {b['headers']} | "
                   f"{TRANSPORTS[b['transport']]} | {LAUNCHERS[launcher(b)]} | {ok} of {len(b['results'])} | "
                   f"{cases} |")
    for b in doc["blocks"]:
        title = f"{b['pto_isa'][:8]}, {b['target']}, {b['headers']} headers, {TRANSPORTS[b['transport']]}"
        if launcher(b) != "mpich":
            title += f", {LAUNCHERS[launcher(b)]}"
        out += ["", f"## {title}", ""]
        out.append("| Testcase | " + " | ".join(f"{n} ranks" for n in RANK_COUNTS) + " | Run |")
        out.append("|---|" + "--:|" * len(RANK_COUNTS) + "--:|")
        by_case: dict[str, dict[int, dict]] = {}
        for r in b["results"]:
            by_case.setdefault(r["testcase"], {})[r["ranks"]] = r
        failures = []
        for case, at in by_case.items():
            cells = []
            for n in RANK_COUNTS:
                r = at.get(n)
                cells.append("—" if r is None else (str(r["passed"]) if r["ok"] else "FAIL"))
                if r is not None and not r["ok"]:
                    failures.append(f"- {case} at {n} ranks: " + (", ".join(f"`{c}`" for c in r["failed"])
                                                                  or "no gtest case failed; the run itself failed"))
            used = sorted({r["run"] + 1 for r in at.values()})
            out.append(f"| {case} | " + " | ".join(cells) + " | " + ", ".join(map(str, used)) + " |")
        if failures:
            out += ["", "Failed:", ""] + failures
        out += ["", "Runs:", ""]
        for i, run in enumerate(b["runs"], 1):
            out.append(f"{i}. {run['date']}, ptolab `{run['ptolab'][:10]}`, {run['mpi']}, {run['seconds']} s "
                       f"(exit {run['exit']}): `{run['command']}`")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("summarize", help="parse a run's log; print its table; optionally record it")
    s.add_argument("log")
    for name in ("target", "headers", "commit", "commit_date", "transport", "command", "ptolab", "mpi"):
        s.add_argument("--" + name.replace("_", "-"), required=name in ("target", "headers", "commit"), default="")
    s.add_argument("--launcher", choices=sorted(LAUNCHERS), default="mpich")
    s.add_argument("--ranks", type=int, required=True)
    s.add_argument("--exit", type=int, required=True)
    s.add_argument("--seconds", type=int, required=True)
    s.add_argument("--out", help="also write the table here")
    s.add_argument("--record", metavar="JSON", help="merge the results into this recorded file")
    r = sub.add_parser("render", help="write the Markdown page of a recorded file")
    r.add_argument("json")
    r.add_argument("--out", required=True)
    a = p.parse_args(argv)

    if a.cmd == "render":
        with open(a.json) as f:
            text = render(json.load(f))
        with open(a.out, "w") as f:
            f.write(text)
        return 0

    with open(a.log, errors="replace") as f:
        runs = parse_log(f)
    text = summary_text(runs, commit=a.commit, target=a.target, headers=a.headers, ranks=a.ranks, rc=a.exit,
                        secs=a.seconds)
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    if a.record:
        try:
            with open(a.record) as f:
                doc = json.load(f)
        except FileNotFoundError:
            doc = {}
        run = {"pto_isa": a.commit, "pto_isa_date": a.commit_date, "target": a.target, "headers": a.headers,
               "transport": a.transport or "shm", "launcher": a.launcher, "command": a.command, "ptolab": a.ptolab,
               "mpi": a.mpi,
               "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
               "seconds": a.seconds, "exit": a.exit, "results": runs}
        merge(doc, run)
        with open(a.record, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
        md = a.record[:-5] + ".md" if a.record.endswith(".json") else a.record + ".md"
        with open(md, "w") as f:
            f.write(render(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
