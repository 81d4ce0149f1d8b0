"""ptolab.sweep's pieces on cheap cases: list files, grids, shards, reports, merge, resume."""
import json
import os
import sys
import xml.etree.ElementTree as ET

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
from ptolab.sweep import __main__ as cli  # noqa: E402
from ptolab.sweep import report as rep  # noqa: E402
from ptolab.sweep.cases import Case, SweepError, from_grid, from_list_file  # noqa: E402
from ptolab.sweep.shard import assign, parse_shard, select_shard  # noqa: E402

LIST = """\
# a comment, then a blank line

ok      echo hello
fail    echo bad thing >&2; exit 3
slow    sleep 30
{"id": "json", "argv": ["/bin/echo", "from json"], "meta": {"shape": "64x64"}}
result  printf '{"status": "compile-error", "detail": "k.cpp:3: error: x"}' > "$PTOLAB_SWEEP_RESULT"
"""


def write_list(tmp_path, text=LIST):
    p = tmp_path / "cases.txt"
    p.write_text(text)
    return str(p)


def test_list_file(tmp_path):
    cases = from_list_file(write_list(tmp_path))
    assert [c.id for c in cases] == ["ok", "fail", "slow", "json", "result"]
    assert cases[0].argv == ["/bin/sh", "-c", "echo hello"] and cases[0].cwd == str(tmp_path)
    assert cases[3].argv == ["/bin/echo", "from json"] and cases[3].meta == {"shape": "64x64"}


@pytest.mark.parametrize("text,message", [
    ("a echo\na echo\n", "case id 'a' appears twice (entries 1 and 2)"),
    ("lonely\n", ":1: `lonely` has an id but no command; write `ID COMMAND`"),
    ('{"id": "x"}\n', ':1: a JSON case needs "id" and "argv" (a list) or "cmd"'),
    ("b$d echo\n", "case id 'b$d' has characters other than"),
])
def test_list_file_errors_say_where_and_how(tmp_path, text, message):
    with pytest.raises(SweepError, match=".*" + __import__("re").escape(message)):
        from_list_file(write_list(tmp_path, text))


def test_grid(tmp_path):
    runner = tmp_path / "run_add.py"
    runner.write_text('SWEEP_GRID = [{"shape": [64, 64], "dtype": "float16"}, {"shape": [1, 128], "dtype": "float32"}]\n')
    cases = from_grid(str(runner), python="/usr/bin/python3")
    assert [c.id for c in cases] == ["run_add:shape=64x64,dtype=float16", "run_add:shape=1x128,dtype=float32"]
    assert cases[0].argv == ["/usr/bin/python3", str(runner), "--shape", "64x64", "--dtype", "float16"]
    runner.write_text("SWEEP_GRID = make_grid()\n")
    with pytest.raises(SweepError, match="run_add.py:1: SWEEP_GRID must be a literal list of dicts"):
        from_grid(str(runner))


def test_parse_shard():
    assert parse_shard("2/4") == (1, 4)
    assert parse_shard(None) is None
    assert parse_shard("slurm", {"SLURM_ARRAY_TASK_ID": "6", "SLURM_ARRAY_TASK_COUNT": "4",
                                 "SLURM_ARRAY_TASK_MIN": "5"}) == (1, 4)
    assert parse_shard("slurm", {"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}) == (3, 4)
    assert parse_shard("gitlab", {"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"}) == (0, 3)
    with pytest.raises(SweepError, match="shard 5 of 4 does not exist"):
        parse_shard("5/4")
    with pytest.raises(SweepError, match="SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT must be set"):
        parse_shard("slurm", {})


def test_shards_balance_by_duration_and_cover_every_case_once():
    ids = [f"c{i}" for i in range(10)]
    durations = {"c0": 100.0, "c1": 60.0, "c2": 50.0, "c3": 10.0}  # the rest: unknown, counted at the median (55)
    owner = assign(ids, durations, 3)
    # Longest first onto the least loaded shard: c0 100, c1 60, c4..c9 55 each, c2 50, c3 10; loads 205/170/175.
    assert owner == {"c0": 0, "c1": 1, "c4": 2, "c5": 2, "c6": 1, "c7": 0, "c8": 2, "c9": 1, "c2": 0, "c3": 2}
    cases = [Case(id=i, argv=["true"]) for i in ids]
    shards = [[c.id for c in select_shard(cases, (k, 3), durations)] for k in range(3)]
    assert sorted(sum(shards, [])) == sorted(ids)
    # The same inputs in another order (another machine's listing) give the same shards.
    assert assign(list(reversed(ids)), durations, 3) == owner


def run(tmp_path, *args):
    return cli.main(["--list", write_list(tmp_path), "--timeout", "2", "--quiet", *args])


def test_run_report_and_junit(tmp_path):
    out = tmp_path / "r"
    assert run(tmp_path, "--out", str(out), "--jobs", "3") == 1
    doc = rep.load_report(str(out))
    got = {r["id"]: r for r in doc["results"]}
    assert sorted(got) == ["fail", "json", "ok", "result", "slow"]
    assert got["ok"]["status"] == "pass" and (out / got["ok"]["log"]).read_text() == "hello\n"
    assert got["fail"]["status"] == "fail" and got["fail"]["detail"] == "exited with code 3: bad thing"
    assert got["slow"]["status"] == "timeout" and got["slow"]["seconds"] < 10
    assert got["slow"]["detail"] == "no result after 2 s; the case's process group was killed"
    assert got["result"]["status"] == "compile-error" and got["result"]["detail"] == "k.cpp:3: error: x"
    assert got["json"]["meta"] == {"shape": "64x64"}
    md = (out / "sweep.md").read_text()
    assert "| fail | exited with code 3: bad thing | logs/fail.log |" in md
    suite = ET.parse(out / "junit.xml").getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("5", "2", "1")
    slow = next(t for t in suite.iter("testcase") if t.get("name") == "slow")
    assert slow.find("error").get("type") == "timeout"


def test_resume_runs_only_what_is_missing(tmp_path):
    out = tmp_path / "r"
    assert run(tmp_path, "--out", str(out), "--only", "ok,fail") == 1
    first = {r["id"]: r["started"] for r in rep.load_report(str(out))["results"]}
    assert run(tmp_path, "--out", str(out), "--resume") == 1
    doc = rep.load_report(str(out))
    assert sorted(r["id"] for r in doc["results"]) == ["fail", "json", "ok", "result", "slow"]
    assert {r["id"]: r["started"] for r in doc["results"] if r["id"] in first} == first  # not run again
    assert doc["resumed"] == 2


def test_merge_equals_unsharded_and_refuses_gaps_and_duplicates(tmp_path):
    whole, s1, s2 = (str(tmp_path / n) for n in ("whole", "s1", "s2"))
    run(tmp_path, "--out", whole)
    for i, d in ((1, s1), (2, s2)):
        run(tmp_path, "--out", d, "--shard", f"{i}/2", "--durations", whole)
    assert set(rep.load_report(s1)["cases"]).isdisjoint(rep.load_report(s2)["cases"])
    assert cli.main(["merge", s1, s2, "--out", str(tmp_path / "m")]) == 0
    assert cli.main(["diff", whole, str(tmp_path / "m")]) == 0
    merged = rep.load_report(str(tmp_path / "m"))
    assert [r["id"] for r in merged["results"]] == ["fail", "json", "ok", "result", "slow"]
    assert (tmp_path / "m" / "logs" / "ok.log").read_text() == "hello\n"
    with pytest.raises(SweepError, match=r"case\(s\) have no result: .* \(shard .*s2/sweep.json\)"):
        rep.merge_reports([rep.load_report(s1), dict(rep.load_report(s2), results=[])])
    with pytest.raises(SweepError, match="is reported twice"):
        rep.merge_reports([rep.load_report(s1), rep.load_report(s1), rep.load_report(s2)])


def test_diff_names_the_field(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    run(tmp_path, "--out", str(a), "--only", "ok")
    doc = json.loads((a / "sweep.json").read_text())
    doc["results"][0]["status"] = "fail"
    b.mkdir()
    (b / "sweep.json").write_text(json.dumps(doc))
    assert cli.main(["diff", str(a), str(b)]) == 1
    assert 'ok: differs in status: status "pass" vs "fail"' in capsys.readouterr().out


def test_bad_executor_and_missing_report(tmp_path, capsys):
    assert run(tmp_path, "--out", str(tmp_path / "r"), "--executor", "ssh://x") == 2
    assert "--executor ssh://x: use local[:N], dask://HOST:PORT" in capsys.readouterr().err
    assert cli.main(["merge", str(tmp_path / "nowhere"), "--out", str(tmp_path / "m")]) == 2
    assert "cannot read the sweep report" in capsys.readouterr().err
