"""The conformance run's parsers and report, fed recorded run_st.py outputs.

samples/*.log are run_st.py outputs: compile_error.log is a real one (a
throwaway g++-as-bisheng root, trimmed); the others wrap real gtest output in
the lines run_st.py prints around its steps.
"""

import json
import subprocess
import os
import sys
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))

import conformance as c  # noqa: E402

COPY = "/tmp/ptolab-conformance-q1w2e3r4/job0/"
PREFIXES = {COPY: "", "/opt/ptolab/build/cann": "$ASCEND_HOME_PATH"}
SEGV = ("ptosim: fatal: SIGSEGV (address 0x10) in kernel 'runTSub' on AIV 0; last PTO call at "
        "tests/npu/a2a3/src/st/testcase/tsub/tsub_kernel.cpp:41. A raw pointer in the kernel went outside "
        "its memory, or the kernel's stack (8 MiB) overflowed.")
DIFF = "idx: 0x40, exp->7, act->4, diff->3, diff ratio->0.428571, zero count->0x0 [ERROR]"


def sample(name):
    with open(os.path.join(HERE, "samples", name + ".log")) as f:
        return f.read()


def rec(name, testcase, returncode, **kw):
    return c.record("a2a3", testcase, sample(name), returncode=returncode, prefixes=PREFIXES, **kw)


def test_compile_error():
    r = rec("compile_error", "tadd", 1, declared=4, seconds=3.2)
    assert r["status"] == "compile-error"
    assert r["compile_error"] == \
        "include/pto/common/type.hpp:96:24: error: found ‘:’ in nested-name-specifier, expected ‘::’"
    assert r["failed_target"] == "tadd_kernel"
    assert r["detail"] == "tadd_kernel: " + r["compile_error"]
    assert (r["kernel_built"], r["host_built"]) == (False, False)
    assert (r["gtest_total"], r["gtest_passed"], r["first_failure"]) == (None, None, None)
    assert r["faults"] == [] and r["exit_code"] is None


def test_compile_error_is_the_same_whichever_kernel_make_built_first():
    # Two kernels fail; `make -j` prints them in either order.
    a = "/src/syncall_kernel.cpp:12:5: error: 'x' was not declared in this scope"
    b = "/src/syncall_kernel_mix.cpp:7:3: error: no matching function for call to 'f'"
    later = "/src/syncall_kernel.cpp:30:1: error: expected ';'"
    first = c.parse_build("\n".join([b, a, later]) + "\n", "syncall")["compile_error"]
    second = c.parse_build("\n".join([a, later, b]) + "\n", "syncall")["compile_error"]
    assert first == second == a


def test_failed_target_is_the_same_whichever_make_reported_first():
    # Both kernels of a testcase include one source that does not compile.
    hard = "make[2]: *** [CMakeFiles/syncall_hard_kernel.dir/build.make:76: x.o] Error 1"
    soft = "make[2]: *** [CMakeFiles/syncall_soft_kernel.dir/build.make:76: y.o] Error 1"
    err = "/src/syncall_hard_kernel.cpp:39:5: error: 'copy_gm_to_ubuf' was not declared in this scope"
    one = c.parse_build("\n".join([err, soft, hard]) + "\n", "syncall")
    other = c.parse_build("\n".join([err, hard, soft]) + "\n", "syncall")
    assert one["failed_target"] == other["failed_target"] == "syncall_hard_kernel"


def test_compile_error_kinds():
    ld = "/usr/bin/ld: cannot find -lruntime_camodel: No such file or directory"
    assert c.parse_build("[ 50%] Built target tadd_kernel\n" + ld + "\n", "tadd") == \
        {"kernel_built": True, "host_built": False, "compile_error": ld, "failed_target": None}
    cmake = "CMake Error at testcase/CMakeLists.txt:121 (message):\n  not found TEST_CASE: tfa, support\n"
    assert c.parse_build(cmake, "tfa")["compile_error"] == \
        "CMake Error at testcase/CMakeLists.txt:121 (message): not found TEST_CASE: tfa, support"
    both = "ptocc: error: unknown flag '-fsome'\nmain.cpp:3:1: error: late\n"
    assert c.parse_build(both, "t")["compile_error"] == "main.cpp:3:1: error: late"  # file:line wins
    mix = "make[2]: *** [testcase/tmatmul/CMakeFiles/tmatmul_kernel_mix.dir/build.make:76: x.o] Error 1\n"
    assert c.parse_build(mix, "tmatmul")["failed_target"] == "tmatmul_kernel_mix"


def test_gtest_failures():
    r = rec("gtest_fail", "tsub", 1, declared=4)
    assert r["status"] == "fail"
    assert (r["kernel_built"], r["host_built"]) == (True, True)
    assert (r["gtest_passed"], r["gtest_total"], r["gtest_failed"]) == (2, 4, 2)
    assert r["first_failure"] == "TSUBTest.case_int32_64x64_64x64"
    assert r["failure_message"] == DIFF
    assert r["detail"] == DIFF
    assert r["exit_code"] == 1 and r["crashed_in"] is None


def test_assertion_message_without_diff():
    out = ("[==========] Running 1 test from 1 test suite.\n[ RUN      ] S.a\nmain.cpp:98: Failure\n"
           "Value of: ret\n  Actual: false\nExpected: true\n[  FAILED  ] S.a (1 ms)\n")
    g = c.parse_gtest(out)
    assert g["first_failure"] == "S.a"
    assert g["failure_message"] == "main.cpp:98: Failure; Value of: ret; Actual: false; Expected: true"


def test_fault():
    r = rec("fault", "tsub", 1)
    assert r["status"] == "fault"
    assert r["faults"] == [SEGV]
    assert r["detail"] == SEGV
    assert (r["gtest_passed"], r["gtest_total"]) == (1, 4)
    assert r["first_failure"] == "TSUBTest.case_int32_64x64_64x64"  # failed before the fault
    assert r["crashed_in"] == "TSUBTest.case_int16_64x64_64x64"
    assert r["exit_code"] == -11


def test_fault_line_inside_other_text():
    assert c.parse_faults("x\n\x1b[1;31mptosim: error: kernel 'k' deadlocked\x1b[0m\nptosim: note\n") == \
        ["ptosim: error: kernel 'k' deadlocked"]


def test_timeout():
    r = rec("timeout", "tmul", None, timed_out=True, timeout_s=600)
    assert r["status"] == "timeout"
    assert r["timeout_phase"] == "run"
    assert r["detail"] == "no result after 600 s (in run)"
    assert (r["gtest_passed"], r["gtest_total"]) == (1, 4)
    assert r["first_failure"] == "TMULTest.case_int32_64x64_64x64"
    assert c.runner_phase("target_dir: x\nrun env shell: y\n") == "build"
    assert c.runner_phase("compile process:\n ...\n") == "gen_data"


def test_missing_module_at_run_time():
    r = rec("missing_module", "tcvt", 1)
    assert r["status"] == "not-runnable"
    assert r["detail"] == "gen_data.py needs Python module ml_dtypes (not installed here)"
    assert (r["kernel_built"], r["host_built"]) == (True, True)


def test_missing_module_before_the_build():
    src = ("import os\nimport numpy as np\nimport ml_dtypes\nfrom en_dtypes import x\n"
           "try:\n    import torch\nexcept ImportError:\n    torch = None\n"
           "def f():\n    import struct\n")
    assert c.required_modules(src) == ["en_dtypes", "ml_dtypes", "numpy", "os", "struct"]
    r = c.not_runnable_record("a2a3", "tmatmul", ["ml_dtypes"], "/usr/bin/python3", declared=9)
    assert r["status"] == "not-runnable"
    assert r["detail"] == "gen_data.py needs Python module ml_dtypes (not installed for /usr/bin/python3)"
    assert (r["kernel_built"], r["host_built"], r["gtest_total"]) == (False, False, None)


def test_pass_and_normalize():
    r = rec("pass", "tadd", 0, declared=4)
    assert r["status"] == "pass"
    assert (r["gtest_passed"], r["gtest_total"], r["detail"]) == (2, 2, None)
    assert c.normalize("/w/job0/tests/npu/a5/src/st/../../../../../include/pto/x.hpp:1:2: error: e",
                       {"/w/job0/": ""}) == "include/pto/x.hpp:1:2: error: e"


def doc():
    results = [
        rec("compile_error", "tadd", 1, declared=4, seconds=3.2),
        rec("gtest_fail", "tsub", 1, declared=4, seconds=41.0),
        rec("fault", "tdiv", 1, declared=4, seconds=12.6),
        rec("timeout", "tmul", None, timed_out=True, timeout_s=600, declared=4, seconds=600.0),
        c.not_runnable_record("a2a3", "tmatmul", ["ml_dtypes"], "/usr/bin/python3", declared=9),
        rec("pass", "tabs", 0, declared=2, seconds=30.4),
    ]
    return {"format": 1, "simulator": "ptosim", "json": "conformance.json",
            "pto_isa": {"commit": "defdb75fd81036a809b1cbae7539e17a9afcb5f0",
                        "commit_date": "2026-03-07T22:10:21+08:00", "path": "/work/pto-isa"},
            "ptolab": {"commit": "f490ed7000000000000000000000000000000000", "dirty": True},
            "root": "/opt/ptolab/build/cann", "root_built": "2026-12-03 05:13 UTC",
            "date": "2026-12-03 06:00 UTC",
            "command": "scripts/conformance.sh /work/pto-isa --target a2a3",
            "compile_only": False, "timeout_s": 600, "jobs": 1, "elapsed_s": 687.2,
            "skipped": [{"target": "a2a3", "testcase": "tfa",
                         "reason": "directory not in the suite's ALL_TESTCASES; run_st.py rejects it"}],
            "results": results}


def test_markdown():
    md = c.render_markdown(json.loads(json.dumps(doc()))).splitlines()
    assert md[0] == "# pto-isa NPU system tests on ptosim"
    assert any(l.startswith("**This is ptosim, ptolab's simulator, not an NPU.**") for l in md)
    assert "- pto-isa commit: `defdb75fd81036a809b1cbae7539e17a9afcb5f0` (2026-03-07T22:10:21+08:00)" in md
    assert "- ptolab commit (the root's tree): `f490ed7000000000000000000000000000000000` with uncommitted changes" \
        in md
    assert "- Root (`ASCEND_HOME_PATH`): `/opt/ptolab/build/cann`; its bisheng, lib64/libascendcl.so and " \
        "libruntime_camodel.so built by 2026-12-03 05:13 UTC" in md
    assert "- Date: 2026-12-03 06:00 UTC" in md
    assert "- Command: `scripts/conformance.sh /work/pto-isa --target a2a3`" in md
    assert "- Mode: build, generate goldens, run; per-testcase timeout 600 s; 1 job(s); wall time 687 s" in md
    # built 4 (tsub, tdiv, tmul, tabs), passing 1 (tabs), gtest 2+1+1+2 / 4+4+4+2, declared 27
    assert "| a2a3 | 6 | 4/6 | 1/6 | 6/14 | 27 | 1 | 1 | 1 |" in md
    assert "Not counted: a2a3/tfa (directory not in the suite's ALL_TESTCASES; run_st.py rejects it)." in md
    assert "- `fault`: ptosim reported a fault (ptosim: fatal / ptosim: error)" in md
    assert "- `built`: built (compile-only run)" not in md  # only statuses that occur
    table = md[md.index("## a2a3"):]
    rows = [l for l in table if l.startswith("| t")]
    assert rows == [
        "| tabs | pass | kernel+host | 2/2 |  |  | 30 |",
        "| tadd | compile-error | no | — |  | `tadd_kernel: include/pto/common/type.hpp:96:24: error: found ‘:’ "
        "in nested-name-specifier, expected ‘::’` | 3 |",
        "| tdiv | fault | kernel+host | 1/4 | `TSUBTest.case_int32_64x64_64x64` | `ptosim: fatal: SIGSEGV (address "
        "0x10) in kernel 'runTSub' on AIV 0; last PTO call at tests/npu/a2a3/src/st/testcase/tsub/tsub_kernel.cpp:"
        "41. A raw pointer in the kernel went outside its memory, or the kernel's stack (...` | 13 |",
        "| tmatmul | not-runnable | not built | — |  | `gen_data.py needs Python module ml_dtypes (not installed "
        "for /usr/bin/python3)` | 0 |",
        "| tmul | timeout | kernel+host | 1/4 | `TMULTest.case_int32_64x64_64x64` | `no result after 600 s (in run)` "
        "| 600 |",
        "| tsub | fail | kernel+host | 2/4 | `TSUBTest.case_int32_64x64_64x64` | `" + DIFF + "` | 41 |",
    ]


def test_markdown_compile_only():
    d = doc()
    d["compile_only"] = True
    d["results"] = [c.record("a2a3", "tadd", "compile process:\n[100%] Built target tadd\n", returncode=0,
                             compile_only=True, declared=4, seconds=9.6), d["results"][0]]
    d["results"][1]["testcase"] = "tand"
    md = c.render_markdown(d).splitlines()
    assert "| a2a3 | 2 | 1/2 | — (not run) | — (not run) | 8 | 0 | 0 | 0 |" in md
    assert "| tadd | built | kernel+host | — |  |  | 10 |" in md
    assert any(l.startswith("- Mode: compile only (kernel and host built, nothing run);") for l in md)


def test_from_json_round_trip(tmp_path):
    d = doc()
    j = tmp_path / "r.json"
    j.write_text(json.dumps(d))
    out = tmp_path / "r.md"
    assert c.main(["--from-json", str(j), "--out", str(out)]) == 0
    assert out.read_text() == c.render_markdown(d)


def test_cell_escapes_pipes():
    assert c._cell("a|b") == "`a\\|b`"
    assert c._cell(None) == ""


FAKE_RUNNER = r'''
import os, sys, time
args = sys.argv[1:]
case = args[args.index("-t") + 1]
st = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "npu", "a2a3", "src", "st")
os.makedirs(os.path.join(st, "build"), exist_ok=True)        # the real runner builds inside the checkout
open(os.path.join(st, "build", "marker"), "w").write(str(os.getpid()))
print("python=" + sys.executable, "ascend=" + os.environ["ASCEND_HOME_PATH"], flush=True)
if case == "tslow":
    print("target_dir: " + st, flush=True)
    time.sleep(60)
sys.stdout.write(open(os.environ["FAKE_SAMPLES"] + "/" + {"tadd": "pass", "tsub": "gtest_fail"}[case] + ".log").read())
sys.exit(0 if case == "tadd" else 1)
'''


def fake_checkout(tmp_path):
    pto = tmp_path / "pto-isa"
    (pto / "tests" / "script").mkdir(parents=True)
    (pto / "tests" / "script" / "run_st.py").write_text(FAKE_RUNNER)
    (pto / "include").mkdir()
    tc = pto / "tests" / "npu" / "a2a3" / "src" / "st" / "testcase"
    tc.mkdir(parents=True)
    (tc / "CMakeLists.txt").write_text("set(ALL_TESTCASES\ntadd\ntsub\ntslow\ntneeds\n)\n")
    for name, imports in (("tadd", "import numpy"), ("tsub", "import os"), ("tslow", "import os"),
                          ("tneeds", "import numpy\nimport no_such_module_here"), ("tother", "import os")):
        (tc / name).mkdir()
        (tc / name / "CMakeLists.txt").write_text("pto_vec_st(%s)\n" % name)
        (tc / name / "gen_data.py").write_text(imports + "\n")
        (tc / name / "main.cpp").write_text("TEST_F(A, a) {}\nTEST_F(A, b) {}\n")
    root = tmp_path / "cann"
    (root / "bin").mkdir(parents=True)
    (root / "bin" / "bisheng").write_text("#!/bin/sh\n")
    (root / "bin" / "bisheng").chmod(0o755)
    return pto, root


def test_run_suite_on_a_fake_checkout(tmp_path, monkeypatch):
    pto, root = fake_checkout(tmp_path)
    monkeypatch.setenv("FAKE_SAMPLES", os.path.join(HERE, "samples"))
    out = tmp_path / "out" / "c.md"
    assert c.main([str(pto), "--root", str(root), "--cases", "tadd,tsub,tslow,tneeds,tother", "--jobs", "2",
                   "--timeout", "3", "--out", str(out), "--logs", str(tmp_path / "logs")]) == 0
    d = json.loads((tmp_path / "out" / "c.json").read_text())
    got = {r["testcase"]: r for r in d["results"]}
    assert sorted(got) == ["tadd", "tneeds", "tslow", "tsub"]
    assert [(s["testcase"], s["target"]) for s in d["skipped"]] == [("tother", "a2a3")]
    assert got["tadd"]["status"] == "pass" and got["tadd"]["gtest_declared"] == 2
    assert got["tsub"]["status"] == "fail" and got["tsub"]["first_failure"] == "TSUBTest.case_int32_64x64_64x64"
    assert got["tslow"]["status"] == "timeout" and got["tslow"]["timeout_phase"] == "build"
    assert got["tslow"]["seconds"] < 20
    assert got["tneeds"]["status"] == "not-runnable"
    assert got["tneeds"]["detail"] == \
        "gen_data.py needs Python module no_such_module_here (not installed for /usr/bin/python3)"
    log = (tmp_path / "logs" / "a2a3-tadd.log").read_text()
    assert "python=/usr/bin/python3" in log and "ascend=" + str(root) in log
    assert not (pto / "tests" / "npu" / "a2a3" / "src" / "st" / "build").exists()  # the checkout is untouched
    assert d["compile_only"] is False and d["jobs"] == 2
    assert "| tslow | timeout | no | — |  | `no result after 3 s (in build)` |" in out.read_text()


def test_an_opt_in_testcase_runs_only_when_named(tmp_path):
    """The suite's OPT_IN_TESTCASES (pto-isa's a5 tprefetch_async, tquant_dn) are left out of a whole-suite
    run, as run_st.py leaves them out of "all"'s default build, but run when --cases names them."""
    pto, root = fake_checkout(tmp_path)
    tc = pto / "tests" / "npu" / "a2a3" / "src" / "st" / "testcase"
    (tc / "CMakeLists.txt").write_text("set(ALL_TESTCASES\ntadd\ntsub\ntslow\ntneeds\n)\n"
                                       "set(OPT_IN_TESTCASES\n# built only when named (a comment)\ntother\n)\n")
    assert c.opt_in_testcases(str(pto), "a2a3") == ["tother"]
    cases, ctx = c.sweep_cases(str(pto), "a2a3", ["tadd", "tother"], root=str(root), timeout=3)
    assert [k.id for k in cases] == ["a2a3:tadd", "a2a3:tother"] and ctx["skipped"] == []
    cases, ctx = c.sweep_cases(str(pto), "a2a3", None, root=str(root), timeout=3)
    assert "a2a3:tother" not in [k.id for k in cases]
    assert [s["testcase"] for s in ctx["skipped"]] == ["tother"]


@pytest.mark.parametrize("module", ["ml_dtypes", "en_dtypes"])
def test_golden_dtypes_choice(tmp_path, monkeypatch, module):
    """Without the package, gen_data.py runs get ptolab's module (built under
    <build>/conformance/python/<module>, next to the root <build>/cann) on PYTHONPATH."""
    import importlib.machinery
    env = {"PATH": os.environ.get("PATH", "")}
    if c.importable({module}, c.PYTHON, env):
        assert c.choose_module(module, str(tmp_path / "cann"), c.PYTHON, env) == {"module": "installed", "path": None}
        assert "PYTHONPATH" not in env
        return
    monkeypatch.setenv("PTOLAB_BUILD_DIR", str(tmp_path / "elsewhere"))
    assert c.choose_module(module, str(tmp_path / "cann"), c.PYTHON, dict(env)) == {"module": None, "path": None}
    shim = tmp_path / "conformance" / "python" / module
    shim.mkdir(parents=True)
    (shim / (module + importlib.machinery.EXTENSION_SUFFIXES[0])).write_bytes(b"")
    env["PYTHONPATH"] = "/somewhere"
    assert c.choose_module(module, str(tmp_path / "cann"), c.PYTHON, env) == {"module": "ptolab", "path": str(shim)}
    assert env["PYTHONPATH"] == str(shim) + os.pathsep + "/somewhere"
    assert c.importable({module}, c.PYTHON, env) == {module}
    d = doc()
    d[module] = {"module": "ptolab", "path": f"ptolab/build/conformance/python/{module}"}
    assert (f"- {module} for the gen_data.py scripts: ptolab's own module "
            f"(`ptolab/build/conformance/python/{module}`, "
            "built from src/golden_dtypes on ptosim's codecs), not the PyPI package") \
        in c.render_markdown(d).splitlines()


def test_reasons_section():
    md = c.render_markdown(json.loads(json.dumps(doc())),
                           reasons={"a2a3/tsub": "the golden rounds twice (gen_data.py line 12)",
                                    "a2a3/tabs": "stale: tabs passes"}).splitlines()
    sec = md[md.index("## Why the others do not pass"):]
    assert "- **a2a3/tsub** (fail): the golden rounds twice (gen_data.py line 12)" in sec
    assert "- **a2a3/tdiv** (fault): not analysed yet." in sec
    assert not any("tabs" in l for l in sec)  # passing testcases are not listed
    assert "4 testcase(s) without a written reason." in sec


def test_reasons_file_skips_comment_keys(tmp_path):
    p = tmp_path / "r.json"
    p.write_text(json.dumps({"_about": "how to write these", "a5/tcmp": "buffer too small"}))
    assert c.load_reasons(str(p)) == {"a5/tcmp": "buffer too small"}
    assert c.load_reasons(str(tmp_path / "absent.json")) == {}


def test_a_run_keeps_its_own_reasons_file(tmp_path):
    # The run over pto-isa's own headers fails for other reasons than the one
    # over ptolab's: its report reads and names its own file.
    p = tmp_path / "docs" / "reasons-pto-isa.json"
    p.parent.mkdir()
    p.write_text(json.dumps({"a2a3/tsub": "a bf16 scalar store"}))
    md = c.render_markdown(json.loads(json.dumps(doc())), reasons_path=str(p)).splitlines()
    sec = md[md.index("## Why the others do not pass"):]
    assert "- **a2a3/tsub** (fail): a bf16 scalar store" in sec
    assert any(l.startswith(f"From `{os.path.relpath(str(p), c.REPO)}` (written by hand") for l in sec), sec[:4]


NOTE = ("ptosim: memcheck: note: gm-past-allocation in kernel 'runTCmp<half>' on AIV block 0: TSTORE at "
        "/tmp/ptolab-conformance-q1w2e3r4/job0/tests/npu/a5/src/st/testcase/tcmp/tcmp_kernel.cpp:45 accesses GM "
        "[0x7f00aa000000, 0x7f00aa001000), which runs 2048 bytes past the 2048 bytes requested for the allocation at "
        "0x7f00aa000000; ptosim reads and writes memory it keeps after the block, as the device reads and writes "
        "whatever lies there; the device does not check this, so the launch went on (ptolab check reports it with "
        "the fix, PTO_SIM_STRICT=1 makes it a fault)")


def test_tolerated_notes_are_recorded_once_and_rendered_without_run_dependent_parts():
    out = "[ RUN      ] TCMPTest.case1\n" + NOTE + "\n" + NOTE + "\nptosim: note: something else\n"
    assert c.parse_tolerated(out) == [NOTE]
    r = {"target": "a5", "testcase": "tcmp", "status": "pass", "tolerated": [NOTE]}
    assert c.render_tolerated([r, dict(r, testcase="tadd", tolerated=[])], ["a5"])[5:] == [
        "- **a5/tcmp**: memcheck `gm-past-allocation` at `tests/npu/a5/src/st/testcase/tcmp/tcmp_kernel.cpp:45` "
        "(TSTORE, AIV block 0 of kernel `runTCmp<half>`): accesses GM, which runs 2048 bytes past the 2048 bytes "
        "requested for the allocation; ptosim reads and writes memory it keeps after the block, as the device "
        "reads and writes whatever lies there"]
    # A testcase that does not pass is explained in "Why the others do not pass" instead.
    assert c.render_tolerated([dict(r, status="fault")], ["a5"]) == []
    # The record keeps what two runs of the testcase share, so that their sweep reports compare equal.
    recorded = c.record("a5", "tcmp", out, returncode=0, prefixes={"/tmp/ptolab-conformance-q1w2e3r4/job0/": ""})
    assert recorded["tolerated"] == [
        "ptosim: memcheck: note: gm-past-allocation in kernel 'runTCmp<half>' on AIV block 0: TSTORE at "
        "tests/npu/a5/src/st/testcase/tcmp/tcmp_kernel.cpp:45 accesses GM, which runs 2048 bytes past the 2048 "
        "bytes requested for the allocation; ptosim reads and writes memory it keeps after the block, as the device "
        "reads and writes whatever lies there; the device does not check this, so the launch went on (ptolab check "
        "reports it with " + NOTE.split("(ptolab check reports it with ", 1)[1]]
    assert c.render_tolerated([dict(r, tolerated=recorded["tolerated"])], ["a5"]) == c.render_tolerated([r], ["a5"])


def test_merge_replaces_the_rerun_testcases_and_records_the_rerun(tmp_path):
    old = {"results": [{"target": "a2a3", "testcase": "tadd", "status": "pass"},
                       {"target": "a2a3", "testcase": "tsort32", "status": "fault"}], "date": "d0", "command": "c0"}
    path = tmp_path / "c.json"
    path.write_text(json.dumps(old))
    new = {"results": [{"target": "a2a3", "testcase": "tsort32", "status": "pass"}], "date": "d1",
           "command": "scripts/conformance.sh x --cases tsort32 --merge", "ptolab": {"commit": "abc"}}
    doc = c.merge_results(str(path), new)
    assert [(r["testcase"], r["status"]) for r in doc["results"]] == [("tadd", "pass"), ("tsort32", "pass")]
    assert doc["date"] == "d0"
    assert doc["reruns"] == [{"date": "d1", "command": new["command"], "ptolab": {"commit": "abc"},
                              "cases": ["a2a3/tsort32"]}]


def git_commit_all(path):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "fake"]):
        subprocess.run(["git", "-C", str(path), *cmd], check=True, env=env)


def test_claim_copy_takes_a_free_copy_and_reuses_it_only_for_the_same_clean_commit(tmp_path):
    pto, _ = fake_checkout(tmp_path)
    git_commit_all(pto)
    work = tmp_path / "work"
    with c.claim_copy(str(work), str(pto)) as first:
        with c.claim_copy(str(work), str(pto)) as second:  # the first is held: a concurrent testcase gets another
            assert (first, second) == (str(work / "copy0"), str(work / "copy1"))
            assert os.path.isfile(os.path.join(second, "tests", "script", "run_st.py"))
        (work / "copy0" / "left-by-the-last-testcase").write_text("")
    with c.claim_copy(str(work), str(pto)) as again:
        assert again == str(work / "copy0")
        assert (work / "copy0" / "left-by-the-last-testcase").exists()
    (pto / "tests" / "script" / "run_st.py").write_text("# changed\n")
    with c.claim_copy(str(work), str(pto)) as dirty:
        assert not (work / "copy0" / "left-by-the-last-testcase").exists()
        assert (work / "copy0" / "tests" / "script" / "run_st.py").read_text() == "# changed\n"


def sweep_cli(*args):
    from ptolab.sweep.__main__ import main as sweep_main
    return sweep_main(list(map(str, args)))


def test_sweep_of_a_fake_suite_in_two_shards_merges_to_the_unsharded_report(tmp_path, monkeypatch):
    from ptolab.sweep.report import comparable, load_report
    pto, root = fake_checkout(tmp_path)
    monkeypatch.setenv("FAKE_SAMPLES", os.path.join(HERE, "samples"))
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # where the cases keep their copies
    common = ["--conformance", pto, "--root", root, "--cases", "tadd,tsub,tneeds,tother", "--quiet", "--no-fail"]
    assert sweep_cli("list", *common[:6]) == 0
    assert sweep_cli(*common, "--out", tmp_path / "whole", "--jobs", "2") == 0
    for i in (1, 2):
        assert sweep_cli(*common, "--out", tmp_path / f"shard{i}", "--shard", f"{i}/2") == 0
    assert sweep_cli("merge", tmp_path / "shard1", tmp_path / "shard2", "--out", tmp_path / "merged") == 0
    assert sweep_cli("diff", tmp_path / "whole", tmp_path / "merged") == 0
    whole, merged = load_report(str(tmp_path / "whole")), load_report(str(tmp_path / "merged"))
    assert [r["id"] for r in merged["results"]] == ["a2a3:tadd", "a2a3:tneeds", "a2a3:tsub"]
    assert [comparable(r) for r in merged["results"]] == [comparable(r) for r in whole["results"]]
    assert merged["conformance"]["skipped"] == [{"target": "a2a3", "testcase": "tother", "reason":
                                                "directory not in the suite's ALL_TESTCASES; run_st.py rejects it"}]

    out = tmp_path / "c.md"
    assert c.main(["--from-sweep", str(tmp_path / "merged"), "--out", str(out)]) == 0
    d = json.loads((tmp_path / "c.json").read_text())
    assert [(r["testcase"], r["status"], r["gtest_passed"], r["gtest_total"]) for r in d["results"]] == \
        [("tadd", "pass", 2, 2), ("tneeds", "not-runnable", None, None), ("tsub", "fail", 2, 4)]
    assert d["shards"] == 2 and d["jobs"] == 2
    assert d["results"][0]["log"] == str(tmp_path / "merged" / "logs" / "a2a3_tadd.log")
    md = out.read_text()
    assert "| tsub | fail | kernel+host | 2/4 | `TSUBTest.case_int32_64x64_64x64` |" in md
    assert "2 shards merged, each 2 job(s)" in md
    assert "Not counted: a2a3/tother" in md
    assert (tmp_path / f"ptolab-conformance-{os.getuid()}" / "copy0" / "tests" / "npu").is_dir()


def test_a_case_ended_without_a_record_is_reported_from_the_engine_result(tmp_path):
    sweep = {"conformance": {"format": 1, "pto_isa": {}, "timeout_s": 10, "skipped": []}, "executor": "local:1",
             "command": "ptolab sweep --conformance x", "date": "d", "elapsed_s": 70.0,
             "results": [{"id": "a5:tcvt", "status": "timeout", "exit_code": -15, "seconds": 70.1,
                          "log": "logs/a5_tcvt.log", "meta": {"target": "a5", "testcase": "tcvt", "declared": 120},
                          "detail": "no result after 70 s; the case's process group was killed"}]}
    d = c.doc_from_sweep(sweep, str(tmp_path))
    r, = d["results"]
    assert (r["target"], r["testcase"], r["status"], r["gtest_declared"], r["seconds"]) == \
        ("a5", "tcvt", "timeout", 120, 70.1)
    assert r["detail"] == "no result after 70 s; the case's process group was killed"
    assert r["log"] == str(tmp_path / "logs" / "a5_tcvt.log")
    assert d["jobs"] == 1 and d["shards"] is None and d["command"] == "ptolab sweep --conformance x"
    with pytest.raises(c.SweepError, match="not a conformance sweep"):
        c.doc_from_sweep({"results": []}, str(tmp_path))


def test_stopping_a_one_case_run_stops_its_runner(tmp_path):
    """The engine stops a case by signalling the case's process group; the runner has a group of its own."""
    import signal
    import time
    pto, root = fake_checkout(tmp_path)
    work, result = tmp_path / "work", tmp_path / "record.json"
    p = subprocess.Popen([c.PYTHON, c.__file__, str(pto), "--one-case", "tslow", "--root", str(root),
                          "--work", str(work), "--result-json", str(result)], stdout=subprocess.DEVNULL)
    marker = work / "copy0" / "tests" / "npu" / "a2a3" / "src" / "st" / "build" / "marker"
    deadline = time.monotonic() + 30
    while not (marker.exists() and marker.read_text()):
        assert time.monotonic() < deadline and p.poll() is None, "the runner did not start"
        time.sleep(0.1)
    runner = int(marker.read_text())
    p.send_signal(signal.SIGTERM)
    assert p.wait(timeout=10) == 128 + signal.SIGTERM
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{runner}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{runner}")
    assert not result.exists()


def test_runner_interpreters_draw_the_same_unseeded_inputs(tmp_path, monkeypatch):
    """gen_data.py scripts that never seed NumPy, or seed it from hash(name) of a string (A5's mgather), get
    the same inputs in every run."""
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    env, _ = c.runner_env(str(tmp_path / "root"), "/usr/bin/python3", str(tmp_path / "work"))
    draw = [sys.executable, "-c", "import numpy, random; print(numpy.random.randint(0, 10**9, 4), random.random(), "
            "hash('MGATHERTest.case_elem_float_64_128size'))"]
    first = subprocess.run(draw, env=env, capture_output=True, text=True, check=True).stdout
    second = subprocess.run(draw, env=env, capture_output=True, text=True, check=True).stdout
    assert first == second
    env["PTOLAB_CONFORMANCE_SEED"] = "1"
    assert subprocess.run(draw, env=env, capture_output=True, text=True, check=True).stdout != first
