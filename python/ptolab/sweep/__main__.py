"""ptolab sweep: run cases, merge shards, compare reports. docs/sweeps.md."""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shlex
import sys

from . import report as rep
from .cases import SweepError, from_grid, from_list_file
from .engine import failing, run_sweep
from .shard import parse_shard, select_shard

def conformance_module():
    """scripts/conformance.py of this checkout: it knows the suite's layout and runs each testcase."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts", "conformance.py")
    if not os.path.isfile(path):
        raise SweepError(f"--conformance needs scripts/conformance.py of a ptolab checkout; {path} is missing")
    spec = importlib.util.spec_from_file_location("ptolab_conformance", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_cases(a) -> tuple[list, dict]:
    """The cases and what the report keeps about where they came from (a conformance run's context)."""
    extra = {}
    if a.list:
        cases = from_list_file(a.list)
    elif a.grid:
        cases = from_grid(a.grid)
    elif a.conformance:
        conf = conformance_module()
        cases, extra["conformance"] = conf.sweep_cases(
            a.conformance, a.target, (a.cases or "").split(","), root=a.root or conf.default_root(),
            timeout=getattr(a, "timeout", 1800.0), compile_only=a.compile_only)  # `list` has no --timeout
    else:
        raise SweepError("no cases: give --list FILE, --grid RUNNER or --conformance PTO_ISA")
    if a.only:
        wanted = a.only.split(",")
        unknown = [w for w in wanted if w not in {c.id for c in cases}]
        if unknown:
            raise SweepError(f"--only: no case {', '.join(unknown)} in the sweep; `ptolab sweep list` prints the ids")
        cases = [c for c in cases if c.id in wanted]
    return cases, extra


def add_selection(p) -> None:
    src = p.add_argument_group("cases (one of)")
    src.add_argument("--list", metavar="FILE", help="list file: `ID COMMAND` or a JSON object per line")
    src.add_argument("--grid", metavar="RUNNER", help="a Python runner declaring SWEEP_GRID: one case per point")
    src.add_argument("--conformance", metavar="PTO_ISA", help="a pto-isa checkout: one case per testcase of its "
                     "NPU system-test suite, run by scripts/conformance.py (docs/conformance-run.md)")
    conf = p.add_argument_group("with --conformance")
    conf.add_argument("--target", choices=["a2a3", "a5", "both"], default="a2a3", help="which suite (default a2a3)")
    conf.add_argument("--cases", metavar="NAMES", help="comma-separated testcases (default: the whole suite)")
    conf.add_argument("--root", metavar="DIR", help="the CANN-shaped root (default build/cann)")
    conf.add_argument("--compile-only", action="store_true", help="build each testcase, run none")
    p.add_argument("--only", metavar="IDS", help="comma-separated case ids: run only these")
    p.add_argument("--shard", metavar="I/N", help="run shard I of N (1-based); `slurm` reads SLURM_ARRAY_TASK_ID/"
                   "SLURM_ARRAY_TASK_COUNT, `gitlab` CI_NODE_INDEX/CI_NODE_TOTAL")
    p.add_argument("--durations", metavar="REPORT",
                   help="a previous sweep report (dir or sweep.json) whose times balance the shards")


def cmd_run(a, argv) -> int:
    cases, extra = load_cases(a)
    doc = run_sweep(cases, a.out, executor=a.executor, jobs=a.jobs, timeout=a.timeout, sync_timeout=a.sync_timeout,
                    shard=parse_shard(a.shard), durations=rep.durations_of(a.durations), resume=a.resume,
                    name=a.name or (f"conformance-{a.target}" if a.conformance else os.path.basename(a.list or a.grid)),
                    command="ptolab sweep " + " ".join(map(shlex.quote, argv)), progress=not a.quiet, extra=extra)
    bad = failing(doc)
    print(f"ptolab sweep: {len(doc['results'])} case(s), {len(bad)} not passing; report in {a.out}/sweep.md, "
          f"sweep.json, junit.xml", file=sys.stderr)
    return 1 if bad and not a.no_fail else 0


def cmd_list(a, argv) -> int:
    cases, _ = load_cases(a)
    for c in select_shard(cases, parse_shard(a.shard), rep.durations_of(a.durations)):
        print(c.id)
    return 0


def cmd_merge(a, argv) -> int:
    merged = rep.merge_reports([rep.load_report(p) for p in a.reports])
    merged["command"] = "ptolab sweep merge " + " ".join(map(shlex.quote, argv))
    rep.copy_logs(merged, a.out)
    rep.write_report(merged, a.out, final=True)
    print(f"ptolab sweep merge: {len(merged['results'])} case(s) from {len(a.reports)} report(s) into {a.out}",
          file=sys.stderr)
    return 0


def cmd_diff(a, argv) -> int:
    x, y = rep.load_report(a.a), rep.load_report(a.b)
    rx = {r["id"]: rep.comparable(r) for r in x["results"]}
    ry = {r["id"]: rep.comparable(r) for r in y["results"]}
    diffs = [f"only in {a.a}: {i}" for i in sorted(set(rx) - set(ry))]
    diffs += [f"only in {a.b}: {i}" for i in sorted(set(ry) - set(rx))]
    for i in sorted(set(rx) & set(ry)):
        if rx[i] != ry[i]:
            keys = sorted(k for k in set(rx[i]) | set(ry[i]) if rx[i].get(k) != ry[i].get(k))
            diffs.append(f"{i}: differs in {', '.join(keys)}: " +
                         "; ".join(f"{k} {json.dumps(rx[i].get(k))} vs {json.dumps(ry[i].get(k))}" for k in keys)[:400])
    for d in diffs:
        print(d)
    print(f"ptolab sweep diff: {len(rx)} and {len(ry)} case(s); {len(diffs)} difference(s)", file=sys.stderr)
    return 1 if diffs else 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ptolab sweep", description=__doc__)
    sub = p.add_subparsers(dest="command")
    run = sub.add_parser("run", help="run a sweep (the default subcommand)")
    add_selection(run)
    run.add_argument("--out", required=True, metavar="DIR", help="report directory: sweep.json, sweep.md, "
                     "junit.xml, logs/")
    run.add_argument("--executor", metavar="SPEC", help="local[:N] (default, N = --jobs), dask://HOST:PORT, "
                     "dask-local[:N]")
    run.add_argument("--jobs", type=int, help="cases at once for local executors (default: the cores)")
    run.add_argument("--timeout", type=float, default=1800.0,
                     help="whole-process limit per case, seconds (default 1800, the seed's simulator value)")
    run.add_argument("--sync-timeout", type=float, help="per-synchronize limit passed to cases as PTO_SYNC_TIMEOUT_S")
    run.add_argument("--resume", action="store_true", help="skip the cases already in DIR/sweep.json")
    run.add_argument("--name", help="the sweep's name in the reports")
    run.add_argument("--no-fail", action="store_true", help="exit 0 even when cases do not pass")
    run.add_argument("--quiet", action="store_true", help="no progress lines")
    lst = sub.add_parser("list", help="print the case ids (of a shard)")
    add_selection(lst)
    merge = sub.add_parser("merge", help="join shard reports; fails if a case is missing or duplicated")
    merge.add_argument("reports", nargs="+", metavar="REPORT")
    merge.add_argument("--out", required=True, metavar="DIR")
    diff = sub.add_parser("diff", help="compare two reports case by case (times and machines left out)")
    diff.add_argument("a")
    diff.add_argument("b")
    return p


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in ("run", "list", "merge", "diff", "-h", "--help"):
        argv = ["run"] + argv
    p = parser()
    a = p.parse_args(argv)
    try:
        return {"run": cmd_run, "list": cmd_list, "merge": cmd_merge, "diff": cmd_diff}[a.command](a, argv[1:])
    except SweepError as e:
        print(f"ptolab sweep: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
