"""scripts/conformance_comm.py on made-up run_comm_test.sh logs, and the
recorded comm-suite page against its JSON: no pto-isa, no MPI needed."""
import importlib.util
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "..", "..")

spec = importlib.util.spec_from_file_location("conformance_comm", os.path.join(REPO, "scripts", "conformance_comm.py"))
cc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc)

# Two testcases in the shape of run_comm_test.sh's output: tput at 4 ranks
# runs the 2-rank filter first (newer run_st.py), then its 4-rank one, where
# one rank passes fewer cases than the other; twait fails a case.
LOG = """\
[INFO] Running testcase: tput  (nranks=4, GTEST_FILTER=*-*8Ranks*)
run command: /x/mpich/bin/mpirun -n 2 ./tput
[  PASSED  ] 26 tests.
[  PASSED  ] 26 tests.
run command: /x/mpich/bin/mpirun -n 4 ./tput
[  PASSED  ] 2 tests.
[  PASSED  ] 2 tests.
[  PASSED  ] 1 tests.
[  PASSED  ] 2 tests.
[INFO] Running testcase: twait  (nranks=2, GTEST_FILTER=*-*4Ranks*:*8Ranks*)
run command: /x/mpich/bin/mpirun -n 2 ./twait
[  PASSED  ] 6 tests.
[  FAILED  ] TWait.SignalGreaterThan (12 ms)
[  FAILED  ] TWait.SignalGreaterThan (12 ms)
[  SKIPPED ] 1 test, listed below:
[ERROR] Testcase failed: twait
"""


def test_a_run_counts_its_own_rank_count_and_the_fewest_any_rank_passed():
    runs = cc.parse_log(LOG.splitlines())
    assert runs == [
        {"testcase": "tput", "ranks": 4, "passed": 1, "skipped": 0, "failed": [], "ok": True},
        {"testcase": "twait", "ranks": 2, "passed": 6, "skipped": 1, "failed": ["TWait.SignalGreaterThan"],
         "ok": False},
    ]


def run_record(results, **kw):
    base = {"pto_isa": "3186c381" + "0" * 32, "pto_isa_date": "2026-08-21T00:00:00+08:00", "target": "a2a3",
            "headers": "ptolab", "transport": "shm", "command": "cmd", "ptolab": "abc", "mpi": "MPICH 4.0.2",
            "date": "2026-12-07 11:00 UTC", "seconds": 10, "exit": 0, "results": results}
    base.update(kw)
    return base


def test_a_later_run_replaces_only_its_testcases_in_its_block():
    first = cc.parse_log(LOG.splitlines())
    doc = cc.merge({}, run_record(first))
    fixed = [{"testcase": "twait", "ranks": 2, "passed": 7, "skipped": 0, "failed": [], "ok": True}]
    cc.merge(doc, run_record(fixed, command="cmd2", date="2026-12-07 12:00 UTC"))
    cc.merge(doc, run_record(fixed, transport="mpi"))
    assert [(b["transport"], len(b["results"])) for b in doc["blocks"]] == [("mpi", 1), ("shm", 2)]
    shm = doc["blocks"][1]
    assert [(r["testcase"], r["passed"], r["ok"], r["run"]) for r in shm["results"]] == [
        ("tput", 1, True, 0), ("twait", 7, True, 1)]
    assert [r["command"] for r in shm["runs"]] == ["cmd", "cmd2"]


def test_colours_in_the_log_are_ignored():
    coloured = LOG.replace("[  PASSED  ] ", "\x1b[0;32m[  PASSED  ] \x1b[m").replace("[  FAILED  ] ", "\x1b[0;31m[  FAILED  ] \x1b[m")
    assert coloured != LOG
    assert cc.parse_log(coloured.splitlines()) == cc.parse_log(LOG.splitlines())


def test_open_mpi_runs_are_a_block_of_their_own_and_older_blocks_are_mpich():
    doc = cc.merge({}, run_record(cc.parse_log(LOG.splitlines())))
    fixed = [{"testcase": "twait", "ranks": 2, "passed": 7, "skipped": 0, "failed": [], "ok": True}]
    cc.merge(doc, run_record(fixed, launcher="openmpi", mpi="Open MPI 4.1.4"))
    assert [(cc.launcher(b), len(b["results"])) for b in doc["blocks"]] == [("mpich", 2), ("openmpi", 1)]
    assert "launcher" not in doc["blocks"][0]
    page = cc.render(doc)
    assert ("| 3186c381 (2026-08-21) | a2a3 | ptolab | shared memory | Open MPI (the tests' MPICH calls through "
            "libptolab_mpich_abi) | 1 of 1 | 7 |") in page
    assert "## 3186c381, a2a3, ptolab headers, shared memory, Open MPI" in page


def test_the_page_shows_failures_by_name_and_which_run_each_row_comes_from():
    doc = cc.merge({}, run_record(cc.parse_log(LOG.splitlines())))
    page = cc.render(doc)
    assert "| 3186c381 (2026-08-21) | a2a3 | ptolab | shared memory | MPICH | 1 of 2 | 1 |" in page
    assert "| tput | — | 1 | — | 1 |" in page
    assert "| twait | FAIL | — | — | 1 |" in page
    assert "- twait at 2 ranks: `TWait.SignalGreaterThan`" in page


def test_the_recorded_page_is_current():
    with open(os.path.join(REPO, "docs", "conformance-comm.json")) as f:
        doc = json.load(f)
    with open(os.path.join(REPO, "docs", "conformance-comm.md")) as f:
        assert f.read() == cc.render(doc), "re-render: scripts/conformance_comm.py render docs/conformance-comm.json --out docs/conformance-comm.md"
