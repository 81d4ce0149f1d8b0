#!/usr/bin/python3
"""The commands of docs/sweeps.md, run for real on cheap cases through `ptolab sweep`:

  shards  a 2-shard run merged equals the unsharded report, case by case
  dask    a Dask LocalCluster with 2 workers, one killed mid-sweep: every case reported once
  resume  a sweep killed part-way, resumed: only the missing cases run

Exit 77 (skipped) when Dask is not installed (dask only)."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

CLI = os.environ.get("PTOLAB_CLI", "ptolab")
CASES = 8


def write_cases(d: str) -> str:
    """Eight cases of about half a second; `kill-once` kills the worker running it the first time it runs
    (the marker file remembers), then passes when the scheduler runs it again elsewhere."""
    lines = [f"case{i} sleep 0.5; echo case {i}" for i in range(CASES)]
    kill = ("import os, signal, sys, time; m = sys.argv[1]\n"
            "if not os.path.exists(m):\n"
            "    open(m, 'w').write(os.environ['PTOLAB_SWEEP_WORKER_PID'])\n"
            "    os.kill(int(os.environ['PTOLAB_SWEEP_WORKER_PID']), signal.SIGKILL); time.sleep(60)\n"
            "print('second run on worker', os.environ['PTOLAB_SWEEP_WORKER_PID'])\n")
    lines.append(json.dumps({"id": "kill-once", "argv": ["/usr/bin/python3", "-c", kill,
                                                          os.path.join(d, "killed-worker.pid")]}))
    with open(os.path.join(d, "plain.txt"), "w") as f:  # for pools that have no worker to lose
        f.write("\n".join(lines[:-1]) + "\n")
    path = os.path.join(d, "cases.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def sweep(*args, check=True) -> subprocess.CompletedProcess:
    cmd = [CLI, "sweep", *args]
    print("+ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr)
    if check and p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited with {p.returncode}")
    return p


def report(d: str) -> dict:
    with open(os.path.join(d, "sweep.json")) as f:
        return json.load(f)


def shards(tmp: str, cases: str) -> None:
    plain = os.path.join(tmp, "plain.txt")
    whole = os.path.join(tmp, "whole")
    sweep("--list", plain, "--out", whole, "--jobs", "2")
    for i in (1, 2):
        sweep("--list", plain, "--out", os.path.join(tmp, f"shard{i}"), "--shard", f"{i}/2", "--durations", whole)
    s1, s2 = report(os.path.join(tmp, "shard1"))["cases"], report(os.path.join(tmp, "shard2"))["cases"]
    assert sorted(s1 + s2) == sorted(f"case{i}" for i in range(CASES)) and not set(s1) & set(s2), (s1, s2)
    sweep("merge", os.path.join(tmp, "shard1"), os.path.join(tmp, "shard2"), "--out", os.path.join(tmp, "merged"))
    sweep("diff", whole, os.path.join(tmp, "merged"))
    p = sweep("merge", os.path.join(tmp, "shard1"), "--out", os.path.join(tmp, "bad"), check=False)
    assert p.returncode == 2 and "case(s) have no result" in p.stderr, p.stderr


def dask(tmp: str, cases: str) -> None:
    out = os.path.join(tmp, "dask")
    sweep("--list", cases, "--out", out, "--executor", "dask-local:2", "--timeout", "120")
    doc = report(out)
    ids = [r["id"] for r in doc["results"]]
    assert sorted(ids) == sorted([f"case{i}" for i in range(CASES)] + ["kill-once"]), ids  # each exactly once
    assert all(r["status"] == "pass" for r in doc["results"]), [(r["id"], r["status"]) for r in doc["results"]]
    with open(os.path.join(tmp, "killed-worker.pid")) as f:
        killed = int(f.read())
    rerun = next(r for r in doc["results"] if r["id"] == "kill-once")
    assert rerun["worker_pid"] != killed, "the case was not run again on another worker"
    print(f"dask: worker {killed} was killed mid-sweep; kill-once ran again on worker {rerun['worker_pid']}; "
          f"{len(ids)} cases reported once each")


def resume(tmp: str, cases: str) -> None:
    plain = os.path.join(tmp, "plain.txt")
    out = os.path.join(tmp, "resumed")
    cmd = [CLI, "sweep", "--list", plain, "--out", out, "--jobs", "1"]
    print("+ " + " ".join(cmd) + "   (killed after 3 cases)", flush=True)
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, start_new_session=True)
    for line in proc.stderr:
        if line.startswith("[3/"):
            break
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    first = {r["id"]: r["started"] for r in report(out)["results"]}
    assert len(first) >= 3, first
    sweep("--list", plain, "--out", out, "--jobs", "2", "--resume")
    doc = report(out)
    assert sorted(r["id"] for r in doc["results"]) == sorted(f"case{i}" for i in range(CASES))
    assert {r["id"]: r["started"] for r in doc["results"] if r["id"] in first} == first  # not run again
    assert doc["resumed"] == len(first)
    print(f"resume: {len(first)} case(s) kept from the killed sweep, {CASES - len(first)} run")


def main() -> int:
    what = sys.argv[1]
    if what == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            print("python3-distributed is not installed: skipped (apt-get install python3-distributed)")
            return 77
    with tempfile.TemporaryDirectory(prefix="ptolab-sweep-test-") as tmp:
        cases = write_cases(tmp)
        {"shards": shards, "dask": dask, "resume": resume}[what](tmp, cases)
    return 0


if __name__ == "__main__":
    sys.exit(main())
