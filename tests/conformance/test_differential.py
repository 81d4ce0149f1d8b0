"""scripts/differential.py and conformance.py's output harvest, on made-up
runner trees and recorded results: no pto-isa needed."""
import importlib.util
import json
import os
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, "..", "..", "scripts", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


conformance = load("conformance")
differential = load("differential")


def write(path, data: bytes):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def test_harvest_keeps_only_what_the_binary_wrote(tmp_path):
    copy = tmp_path / "copy"
    build = copy / "tests/npu/a2a3/src/st/build"
    write(str(build / "T.case1/input.bin"), b"in")     # gen_data.py, before the binary
    write(str(build / "T.case1/golden.bin"), b"gold")
    old = time.time() - 100
    for f in ("input.bin", "golden.bin"):
        os.utime(build / "T.case1" / f, (old, old))
    (build / "bin" / "camodel_log").mkdir(parents=True)  # run_binary's marker
    write(str(build / "T.case1/output.bin"), b"out")
    write(str(build / "CMakeFiles/x.bin"), b"cmake")
    kept = conformance.harvest_outputs(str(copy), "a2a3", "tx", str(tmp_path / "keep"))
    assert kept == [os.path.join("T.case1", "output.bin")]
    assert (tmp_path / "keep/a2a3/tx/T.case1/output.bin").read_bytes() == b"out"


def test_harvest_of_a_testcase_whose_binary_never_ran(tmp_path):
    (tmp_path / "tests/npu/a2a3/src/st/build/T.c").mkdir(parents=True)
    assert conformance.harvest_outputs(str(tmp_path), "a2a3", "tx", str(tmp_path / "keep")) == []


def side(work, name, target, testcase, files, status="pass"):
    for rel, data in files.items():
        write(os.path.join(work, name, "outputs", target, testcase, rel), data)
    return {"target": target, "testcase": testcase, "status": status, "outputs": sorted(files)}


def test_compare_names_each_difference(tmp_path):
    w = str(tmp_path)
    docs = {
        "ptolab": {"results": [side(w, "ptolab", "a2a3", "tsame", {"C.a/output.bin": b"\x01\x02"}),
                               side(w, "ptolab", "a2a3", "tdiff", {"C.a/output.bin": b"\x01\x02\x03\x04"}),
                               side(w, "ptolab", "a2a3", "tsize", {"C.a/output.bin": b"\x01"}),
                               side(w, "ptolab", "a2a3", "tstat", {}, status="pass")]},
        "pto-isa": {"results": [side(w, "pto-isa", "a2a3", "tsame", {"C.a/output.bin": b"\x01\x02"}),
                                side(w, "pto-isa", "a2a3", "tdiff", {"C.a/output.bin": b"\x01\x09\x03\x08"}),
                                side(w, "pto-isa", "a2a3", "tsize", {"C.a/output.bin": b"\x01\x02"}),
                                {"target": "a2a3", "testcase": "tstat", "status": "compile-error"}]},
    }
    rows = {r["testcase"]: r for r in differential.compare(w, docs)}
    assert not rows["tsame"]["verdict_needed"]
    assert rows["tdiff"]["files"] == [{"file": "C.a/output.bin", "result": "2 of 4 bytes differ, first at byte 1"}]
    assert rows["tsize"]["files"] == [{"file": "C.a/output.bin", "result": "sizes 1 and 2"}]
    assert rows["tstat"]["verdict_needed"] and rows["tstat"]["status"] == {"ptolab": "pass", "pto-isa": "compile-error"}
    md = differential.render({"pto_isa": {"commit": "abc"}, "command": "c", "date": "d",
                              "rows": list(rows.values())}, {"a2a3/tdiff": "pto-isa is right: ..."})
    assert "| a2a3/tdiff | pass | pass | C.a/output.bin: 2 of 4 bytes differ, first at byte 1 | pto-isa is right: ... |" in md
    assert "| a2a3/tsize | pass | pass | C.a/output.bin: sizes 1 and 2 | **no verdict yet** |" in md
    assert "with a difference: 3 (1 with a verdict)" in md
    assert "a2a3/tsame (pass, 1 files)" in md



def test_a_named_testcase_the_runner_does_not_take_gets_a_row_with_the_reason(tmp_path):
    w = str(tmp_path)
    reason = "directory not in the suite's ALL_TESTCASES; run_st.py rejects it"
    docs = {s: {"results": [side(w, s, "a5", "tsame", {"C.a/output.bin": b"\x01"})],
                "skipped": [{"target": "a5", "testcase": "tgone", "reason": reason}]} for s in ("ptolab", "pto-isa")}
    rows = {r["testcase"]: r for r in differential.compare(w, docs)}
    assert rows["tgone"] == {"target": "a5", "testcase": "tgone", "status": {"ptolab": "not-run", "pto-isa": "not-run"},
                             "files": [], "not_run": reason, "verdict_needed": False}
    md = differential.render({"pto_isa": {"commit": "abc"}, "command": "c", "date": "d",
                              "rows": list(rows.values())}, {"a5/tgone": "Upstream's own runner never builds it."})
    assert "Testcases compared: 1; the same status and byte-identical outputs: 1; with a difference: 0 " \
           "(0 with a verdict); named but run on neither side: 1" in md
    assert "- a5/tgone: " + reason + ". Upstream's own runner never builds it." in md
    assert "a5/tgone (" not in md

cookbook = load("differential_cookbook")


def test_cookbook_compares_each_checks_bytes_and_asks_for_verdicts(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    write(str(a / "static_add.bin"), b"\x01\x02\x03\x04")
    write(str(b / "static_add.bin"), b"\x01\x02\x03\x04")
    write(str(a / "static_matmul.bin"), b"\x00\x00\x80\x3f")
    write(str(b / "static_matmul.bin"), b"\x00\x00\x80\x3e")
    write(str(a / "static_matmul.1.bin"), b"xx")  # a second check of the same case, one side only
    side = lambda d, ok: {"r.py": {"cases": {"static add": True, "static matmul": ok}, "dump": str(d)}}
    rows = cookbook.compare(side(a, True), side(b, False))
    assert [(r["case"], r["ptolab"], r["pto-isa"]) for r in rows] == [
        ("static add", True, True), ("static matmul", True, False)]
    assert rows[0]["files"] == [{"file": "static_add.bin", "bytes": 4, "same": True, "detail": ""}]
    assert rows[1]["files"] == [
        {"file": "static_matmul.1.bin", "same": False, "detail": "only one side wrote it"},
        {"file": "static_matmul.bin", "bytes": 4, "same": False, "detail": "1 of 4 bytes differ"}]
    doc = {"pto_isa": "/p", "pto_isa_commit": "c", "ptolab_commit": "d", "date": "now", "runners": ["r.py"],
           "rows": rows}
    page = cookbook.render(doc, {})
    assert "- Checks compared: 2; the same result and byte-identical outputs: 1; with a difference: 1" in page
    assert ("| static matmul | True | False | static_matmul.1.bin: only one side wrote it; static_matmul.bin: "
            "1 of 4 bytes differ | **no verdict yet** |") in page
    assert "static add (4 bytes)" in page
    assert "| ptolab is right |" in cookbook.render(doc, {"cookbook/static matmul": "ptolab is right"})
