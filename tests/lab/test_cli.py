"""The ptolab CLI: every command, its exit codes and its bad-input cases.
Run by ctest (one entry per command) with PTOLAB_CLI pointing at the binary."""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

CLI = os.environ.get("PTOLAB_CLI", "ptolab")


def ptolab(*args, env=None, timeout=120, input=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, env=e, timeout=timeout, input=input)


# --- help -------------------------------------------------------------------

@pytest.mark.parametrize("cmd", [[], ["compare"], ["run"], ["doctor"], ["log"], ["check"], ["profile"]])
def test_help_every_command(cmd):
    r = ptolab(*cmd, "--help")
    assert r.returncode == 0, r.stderr
    assert "Exit codes" in r.stdout


def test_help_usage_errors_exit_2():
    assert ptolab().returncode == 2
    r = ptolab("frobnicate")
    assert r.returncode == 2 and "ptolab --help" in r.stderr


# --- compare ----------------------------------------------------------------

def test_compare_empty_files_prove_nothing(tmp_path):
    (tmp_path / "a.bin").write_bytes(b"")
    (tmp_path / "b.bin").write_bytes(b"")
    r = ptolab("compare", tmp_path / "a.bin", tmp_path / "b.bin", "--dtype", "float32")
    assert r.returncode == 3
    assert "a.bin holds no elements; an empty output proves nothing" in r.stderr
    assert "PASS" not in r.stdout


def test_compare_pass_and_fail(tmp_path):
    e = np.linspace(-1, 1, 64, dtype=np.float32).reshape(8, 8)
    np.save(tmp_path / "e.npy", e)
    np.save(tmp_path / "a.npy", e.copy())
    r = ptolab("compare", tmp_path / "a.npy", tmp_path / "e.npy")
    assert r.returncode == 0 and r.stdout.startswith("PASS"), r.stdout + r.stderr
    bad = e.copy()
    bad[3, 5] += 1e-3
    np.save(tmp_path / "b.npy", bad)
    r = ptolab("compare", tmp_path / "b.npy", tmp_path / "e.npy", "--name", "add")
    assert r.returncode == 1
    assert r.stdout.startswith("FAIL add: 1 of 64")
    assert "[3, 5]" in r.stdout and "RMSE" in r.stdout and "R2" in r.stdout


def test_compare_json_and_result_file(tmp_path):
    e = np.ones(10, dtype=np.float16)
    np.save(tmp_path / "e.npy", e)
    e.tofile(tmp_path / "a.bin")
    r = ptolab("compare", tmp_path / "a.bin", tmp_path / "e.npy", "--dtype", "float16", "--json",
               "--result", tmp_path / "r.json")
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    assert j["status"] == "PASS" and j["rtol"] == 1e-3 and j["atol"] == 1e-5 and j["count"] == 10
    assert json.loads((tmp_path / "r.json").read_text()) == j


def test_compare_bin_with_shape_and_bfloat16(tmp_path):
    import ptolab as pl  # the package's bfloat16 encoder is the same code the CLI decodes with
    vals = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    pl._core.bf16_from_float32(vals).tofile(tmp_path / "a.bin")
    pl._core.bf16_from_float32(vals * 1.01).tofile(tmp_path / "e.bin")
    r = ptolab("compare", tmp_path / "a.bin", tmp_path / "e.bin", "--dtype", "bf16", "--shape", "2,2")
    assert r.returncode == 0, r.stdout + r.stderr  # 1% is inside bfloat16's 1.6e-2
    r = ptolab("compare", tmp_path / "a.bin", tmp_path / "e.bin", "--dtype", "bf16", "--shape", "2,2",
               "--rtol", "1e-3", "--atol", "1e-5")
    assert r.returncode == 1


def test_compare_relaxed_tolerance_is_announced(tmp_path):
    np.save(tmp_path / "a.npy", np.ones(4, np.float32))
    np.save(tmp_path / "e.npy", np.ones(4, np.float32))
    r = ptolab("compare", tmp_path / "a.npy", tmp_path / "e.npy", "--rtol", "1e-3", "--atol", "1e-2")
    assert r.returncode == 0
    assert "relaxed" in r.stderr and "--reason" in r.stderr and "atol >= 1e-2" in r.stderr


@pytest.mark.parametrize("case", ["truncated", "trailing", "garbage", "shape", "dtype", "binsize", "nodtype",
                                  "missing", "badshape", "baddtype", "fortran"])
def test_compare_bad_inputs_never_pass(tmp_path, case):
    e = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.save(tmp_path / "e.npy", e)
    raw = (tmp_path / "e.npy").read_bytes()
    a = tmp_path / "a.npy"
    extra = []
    code = 3
    if case == "truncated":
        a.write_bytes(raw[:-5])
    elif case == "trailing":
        a.write_bytes(raw + b"\0\0\0\0")
    elif case == "garbage":
        a.write_bytes(b"\x93NUMPY\x01\x00\x10\x00{'descr': 'xx'}")
    elif case == "shape":
        np.save(a, e.reshape(4, 3))
    elif case == "dtype":
        np.save(a, e.astype(np.float16))
    elif case == "binsize":
        a = tmp_path / "a.bin"
        e.tofile(a)
        extra = ["--dtype", "float32", "--shape", "3,5"]
    elif case == "nodtype":
        a = tmp_path / "a.bin"
        e.tofile(a)
    elif case == "missing":
        a = tmp_path / "nope.npy"
    elif case == "badshape":
        np.save(a, e)
        extra, code = ["--shape", "3,x"], 2
    elif case == "baddtype":
        np.save(a, e)
        extra, code = ["--dtype", "float17"], 2
    elif case == "fortran":
        np.save(a, np.asfortranarray(e))
    r = ptolab("compare", a, tmp_path / "e.npy", *extra)
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert "PASS" not in r.stdout
    assert "error" in r.stderr.lower() and str(a.name) in r.stderr or code == 2


@pytest.mark.parametrize("case", ["npy_directory", "raw_directory", "empty_npy", "short_npy_header"])
def test_compare_unreadable_inputs_say_what_is_wrong(tmp_path, case):
    np.save(tmp_path / "e.npy", np.ones(4, dtype=np.float32))
    a = tmp_path / ("a.bin" if case == "raw_directory" else "a.npy")
    if case.endswith("directory"):
        a.mkdir()
        what = "is a directory; pass the output or golden file inside it"
    elif case == "empty_npy":
        a.write_bytes(b"")
        what = ("is empty (0 bytes): it was created but never written; check that the kernel or script that makes it "
                "ran to the end")
    else:
        a.write_bytes(b"\x93NUMPY\x01")
        what = "truncated .npy header: 7 bytes, the fixed part alone is 10; regenerate it with numpy.save"
    r = ptolab("compare", a, tmp_path / "e.npy", "--dtype", "float32")
    assert (r.returncode, r.stdout, r.stderr) == (3, "", f"ptolab compare: error: {a}: {what}\n")


@pytest.mark.parametrize("verdict", ["PASS", "FAIL"])
@pytest.mark.parametrize("target", ["/dev/full", "under_a_file"])
def test_compare_result_write_error_keeps_the_verdict(tmp_path, verdict, target):
    e = np.ones(4, dtype=np.float32)
    np.save(tmp_path / "e.npy", e)
    np.save(tmp_path / "a.npy", e if verdict == "PASS" else e * 2)
    result, reason = "/dev/full", "No space left on device"
    if target == "under_a_file":
        result, reason = tmp_path / "e.npy" / "r.json", "Not a directory"
    r = ptolab("compare", tmp_path / "a.npy", tmp_path / "e.npy", "--result", result)
    assert r.stdout.startswith(verdict + " ")
    assert r.stderr == (f"ptolab compare: error: --result: cannot write {result}: {reason}; the comparison above "
                        f"{'passed' if verdict == 'PASS' else 'failed'} but its JSON was not saved: fix the path and "
                        "rerun\n")
    assert r.returncode == (3 if verdict == "PASS" else 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy", "e.npy"]


def test_compare_result_that_is_an_input_is_refused(tmp_path):
    np.save(tmp_path / "e.npy", np.ones(4, dtype=np.float32))
    before = (tmp_path / "e.npy").read_bytes()
    r = ptolab("compare", tmp_path / "e.npy", tmp_path / "e.npy", "--result", f"{tmp_path}/./e.npy")
    assert r.returncode == 2 and r.stdout == ""
    assert (f"--result {tmp_path}/./e.npy is the input {tmp_path}/e.npy: the JSON would replace it; name another "
            "file, e.g. result.json") in r.stderr
    assert (tmp_path / "e.npy").read_bytes() == before


def test_compare_result_replaces_the_file_whole_and_keeps_a_symlink(tmp_path):
    e = np.ones(4, dtype=np.float32)
    np.save(tmp_path / "e.npy", e)
    (tmp_path / "real.json").write_text("old")
    (tmp_path / "r.json").symlink_to("real.json")
    r = ptolab("compare", tmp_path / "e.npy", tmp_path / "e.npy", "--result", tmp_path / "r.json")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "r.json").is_symlink()
    assert json.loads((tmp_path / "real.json").read_text())["status"] == "PASS"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e.npy", "r.json", "real.json"]


# --- run --------------------------------------------------------------------

def test_run_passes_exit_status():
    assert ptolab("run", "--", "sh", "-c", "exit 7").returncode == 7
    assert ptolab("run", "--", "true").returncode == 0
    r = ptolab("run", "--", "sh", "-c", "echo out; echo err >&2")
    assert r.stdout == "out\n" and r.stderr == "err\n"


def test_run_signal_death_is_128_plus_n():
    assert ptolab("run", "--", "sh", "-c", "kill -9 $$").returncode == 128 + 9


def test_run_not_found_and_not_executable(tmp_path):
    r = ptolab("run", "--", "no-such-command-ptolab")
    assert r.returncode == 127 and "PATH" in r.stderr
    f = tmp_path / "x.sh"
    f.write_text("echo hi\n")
    assert ptolab("run", "--", f).returncode == 126


def test_run_timeout_kills_whole_group(tmp_path):
    marker = tmp_path / "grandchild.pid"
    t0 = time.time()
    r = ptolab("run", "--timeout", "1", "--kill-after", "1", "--",
               "sh", "-c", f"sleep 60 & echo $! > {marker}; wait")
    assert r.returncode == 124
    assert time.time() - t0 < 10
    assert "1 s" in r.stderr and "PTO_PROCESS_TIMEOUT_S" in r.stderr and "--timeout" in r.stderr
    pid = int(marker.read_text())
    time.sleep(0.2)
    stat = open(f"/proc/{pid}/stat").read().split(")")[-1].split() if os.path.exists(f"/proc/{pid}") else ["X"]
    assert stat[0] in ("X", "Z"), "the grandchild survived the timeout"


def test_run_timeout_escalates_to_sigkill():
    r = ptolab("run", "--timeout", "0.5", "--kill-after", "0.5", "--json", "--",
               "sh", "-c", "trap '' TERM; while :; do sleep 0.1; done")
    assert r.returncode == 124
    j = json.loads(r.stderr.strip().splitlines()[-1])
    assert j["timed_out"] and j["killed"] and j["timeout_source"] == "--timeout"


def test_run_env_limits_and_defaults():
    r = ptolab("run", "--json", "--", "true", env={"PTO_PROCESS_TIMEOUT_S": "", "PTO_SIMULATOR": "1"})
    assert json.loads(r.stderr.splitlines()[-1])["timeout_s"] == 1800
    r = ptolab("run", "--json", "--", "true", env={"PTO_PROCESS_TIMEOUT_S": "", "PTO_SIMULATOR": ""})
    j = json.loads(r.stderr.splitlines()[-1])
    assert j["timeout_s"] == 60 and j["kill_after_s"] == 10
    r = ptolab("run", "--", "sleep", "5", env={"PTO_PROCESS_TIMEOUT_S": "0.5", "PTO_PROCESS_KILL_AFTER_S": "1"})
    assert r.returncode == 124 and "PTO_PROCESS_TIMEOUT_S=0.5" in r.stderr
    r = ptolab("run", "--", "true", env={"PTO_PROCESS_TIMEOUT_S": "soon"})
    assert r.returncode == 2 and "PTO_PROCESS_TIMEOUT_S='soon'" in r.stderr


def test_run_usage_errors():
    assert ptolab("run").returncode == 2
    for value, message in [("-3", "--timeout: '-3' is not a positive number of seconds; set it to e.g. 120"),
                           ("abc", "--timeout: 'abc' is not a positive number of seconds"),
                           ("1e300", "--timeout: '1e300' is more than 1e+09 seconds; set it to e.g. 120")]:
        r = ptolab("run", "--timeout", value, "--", "true")
        assert r.returncode == 2 and message in r.stderr, r.stderr
        assert len(r.stderr) < 400  # no 309-digit bound
    r = ptolab("run", "--", "true", env={"PTO_PROCESS_TIMEOUT_S": "1e12"})
    assert r.returncode == 2
    assert "ptolab: error: PTO_PROCESS_TIMEOUT_S='1e12' is more than 1e+09 seconds" in r.stderr


def test_run_forwards_sigterm():
    p = subprocess.Popen([CLI, "run", "--", "sleep", "30"])
    time.sleep(0.5)
    p.send_signal(signal.SIGTERM)
    assert p.wait(timeout=10) == 128 + signal.SIGTERM


# --- doctor -----------------------------------------------------------------

def test_doctor_text_and_json():
    r = ptolab("doctor", "--python", sys.executable)
    assert r.returncode == 0, r.stderr
    assert "=> " in r.stdout and "Applies here" in r.stdout and "Ascend910B2" in r.stdout
    r = ptolab("doctor", "--json", "--python", sys.executable)
    assert r.returncode == 0
    j = json.loads(r.stdout)
    names = {t["name"] for t in j["tools"]}
    for needed in ("bisheng", "npu-smi", "CANN (ASCEND_HOME_PATH)", "torch", "torch_npu", "ACL SoC name (ptosim)"):
        assert needed in names
    assert {p["name"] for p in j["soc_profiles"]} >= {"Ascend910B2", "Ascend950PR"}
    assert j["applies"]["host"] in [m["host"] for m in j["matrix"]]
    for t in j["tools"]:
        assert t["found"] or t["rules_out"], t


def test_doctor_survives_missing_everything(tmp_path):
    # Named on the command line, since by default doctor probes the interpreter the build found.
    r = ptolab("doctor", "--json", "--python", "python3",
               env={"PATH": str(tmp_path), "ASCEND_HOME_PATH": str(tmp_path / "none"), "PTOLAB_PYTHON": ""})
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    assert j["applies"]["host"] == "No matching NPU"
    py = [t for t in j["tools"] if t["name"].startswith("python")][0]
    assert not py["found"] and py["rules_out"]


def test_doctor_sees_a_stand_in_npu_smi(tmp_path):
    smi = tmp_path / "npu-smi"
    smi.write_text("#!/bin/sh\necho '| 0     910B2   | OK |'\n")
    smi.chmod(0o755)
    r = ptolab("doctor", "--json", "--python", sys.executable, env={"PATH": f"{tmp_path}:{os.environ['PATH']}"})
    j = json.loads(r.stdout)
    assert j["host_soc"] == "Ascend910B2" and j["applies"]["row"] == 0


SIM_TORCH_NPU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "torch_npu_sim")


def _doctor_tool(j, prefix):
    found = [t for t in j["tools"] if t["name"].startswith(prefix)]
    assert len(found) == 1, [t["name"] for t in j["tools"]]
    return found[0]


def test_doctor_names_the_simulated_torch_npu_and_never_takes_it_for_an_npu():
    pytest.importorskip("torch")
    sim = os.path.realpath(SIM_TORCH_NPU)
    env = {"PYTHONPATH": os.pathsep.join([sim, os.environ.get("PYTHONPATH", "")]), "PTOLAB_TORCH_NPU": "sim",
           "PTO_SIM_SOC": "Ascend910B2", "PATH": os.environ["PATH"]}
    r = ptolab("doctor", "--json", "--python", sys.executable, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    t = _doctor_tool(j, "torch_npu")
    assert t["name"] == "torch_npu (simulated)" and t["found"]
    assert t["detail"] == (f"2.1.0+ptosim at {sim}/torch_npu/__init__.py: ptolab's torch_npu on ptosim "
                           f"(PTOLAB_TORCH_NPU=sim), simulating Ascend910B2; not an NPU")
    assert t["rules_out"] == ("no real NPU: ptolab's torch_npu on ptosim (PTOLAB_TORCH_NPU=sim), simulating "
                              "Ascend910B2; host-side operators are references, torch.npu.Event times are simulated "
                              "NPU time from ptosim's cost model (docs/torch_npu.md)")
    assert j["host_soc_evidence"] != "torch.npu.get_device_properties"  # the simulator is no evidence of an NPU
    r = ptolab("doctor", "--python", sys.executable, env=env, timeout=300)
    assert f"  [ok] torch_npu (simulated)    2.1.0+ptosim at {sim}/torch_npu/__init__.py: " in r.stdout


def test_doctor_names_a_real_torch_npu_and_the_npu_it_sees(tmp_path):
    pytest.importorskip("torch")
    # A stand-in for an installed torch_npu on an NPU host: it adds torch.npu as the real package does.
    pkg = tmp_path / "torch_npu"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "import types, torch\n"
        "__version__ = '2.1.0.post8'\n"
        "props = types.SimpleNamespace(name='Ascend910B4', cube_core_num=20, vector_core_num=40)\n"
        "torch.npu = types.SimpleNamespace(is_available=lambda: True, current_device=lambda: 0,\n"
        "                                  device_count=lambda: 2, get_device_properties=lambda i: props)\n")
    r = ptolab("doctor", "--json", "--python", sys.executable, env={"PYTHONPATH": str(tmp_path)}, timeout=300)
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    t = _doctor_tool(j, "torch_npu")
    assert t["name"] == "torch_npu" and t["found"]
    assert t["detail"] == f"2.1.0.post8 at {pkg / '__init__.py'}: Ascend910B4, 20 Cube / 40 Vector cores, 2 device(s)"
    assert (j["host_soc"], j["host_soc_evidence"]) == ("Ascend910B4", "torch.npu.get_device_properties")
    (pkg / "__init__.py").write_text(
        "import types, torch\n__version__ = '2.1.0.post8'\ntorch.npu = types.SimpleNamespace(is_available=lambda: False)\n")
    j = json.loads(ptolab("doctor", "--json", "--python", sys.executable, env={"PYTHONPATH": str(tmp_path)},
                          timeout=300).stdout)
    assert _doctor_tool(j, "torch_npu")["detail"] == (f"2.1.0.post8 at {pkg / '__init__.py'}: no NPU visible "
                                                      f"(torch.npu.is_available() is False)")


# --- log --------------------------------------------------------------------

def test_log_runs_and_records(tmp_path):
    log = tmp_path / "verification-log.md"
    res = tmp_path / "r.json"
    res.write_text('{"status": "PASS", "cases": 2}')
    r = ptolab("log", "--log", log, "--result", res, "--host", "test host", "--",
               "sh", "-c", "echo 'PASS add n=1'; echo noise; echo 'PASS add n=2'")
    assert r.returncode == 0, r.stderr
    assert "PASS add n=1" in r.stdout  # output is shown as well as recorded
    text = log.read_text()
    assert text.startswith("# Verification log")
    assert "test host" in text and "sh -c 'echo '" in text
    assert "PASS add n=2" in text and '"cases": 2' in text and "— PASS" in text
    assert "\nnoise\n" not in text  # only PASS/FAIL lines are recorded


def test_log_records_failure_and_exit_status(tmp_path):
    log = tmp_path / "v.md"
    r = ptolab("log", "--log", log, "--host", "h", "--", "sh", "-c", "echo 'FAIL add: 3 of 9'; exit 1")
    assert r.returncode == 1
    text = log.read_text()
    assert "— FAIL" in text and "Exit status: 1" in text


def test_log_timeout_is_recorded(tmp_path):
    log = tmp_path / "v.md"
    r = ptolab("log", "--log", log, "--host", "h", "--timeout", "0.5", "--kill-after", "0.5", "--", "sleep", "30")
    assert r.returncode == 124
    assert "FAIL timeout" in log.read_text()


def test_log_finished_run_and_json(tmp_path):
    log = tmp_path / "v.md"
    out = tmp_path / "out.txt"
    out.write_text("PASS x\n")
    r = ptolab("log", "--log", log, "--host", "h", "--command", "python3 run.py", "--output", out, "--json")
    assert r.returncode == 0
    assert json.loads(r.stdout)["verdict"] == "PASS"
    r = ptolab("log", "--log", log, "--host", "h", "--command", "python3 run.py", "--output", "-",
               input="FAIL y\n")
    assert r.returncode == 1


def test_log_bad_inputs_leave_log_untouched(tmp_path):
    log = tmp_path / "v.md"
    ptolab("log", "--log", log, "--host", "h", "--command", "c", "--output", "-", input="PASS a\n")
    before = log.read_bytes()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = ptolab("log", "--log", log, "--host", "h", "--command", "c", "--result", bad)
    assert r.returncode == 3 and "not valid JSON" in r.stderr
    r = ptolab("log", "--log", log, "--host", "h", "--command", "c", "--output", tmp_path / "missing.txt")
    assert r.returncode == 3
    assert ptolab("log", "--log", log).returncode == 2
    assert ptolab("log", "--log", log, "--command", "c", "--", "true").returncode == 2
    assert log.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".v.md")] == []


def test_log_directory_as_input_is_bad_input(tmp_path):
    log = tmp_path / "v.md"
    for flag in ("--result", "--output"):
        r = ptolab("log", "--log", log, "--host", "h", "--command", "c", flag, tmp_path)
        assert (r.returncode, r.stderr) == (3, f"ptolab log: error: {flag} {tmp_path}: is a directory; pass the file "
                                               f"inside it" + (f"; nothing was written to {log}" if flag == "--result"
                                                               else "") + "\n")
    assert not log.exists()


def test_log_into_a_device_is_refused_before_reading_it():
    # /dev/full reads as endless zeros: reading the log back must not start.
    r = ptolab("log", "--log", "/dev/full", "--host", "h", "--command", "c", "--output", "/dev/null", timeout=30)
    assert (r.returncode, r.stderr) == (3, "ptolab log: error: --log /dev/full is not a regular file; ptolab log reads "
                                           "the log back to append an entry: name a file; the log was left as it was\n")


def test_log_concurrent_appends_never_interleave(tmp_path):
    log = tmp_path / "v.md"
    procs = [subprocess.Popen([CLI, "log", "--log", str(log), "--host", "h", "--command", f"case {i}",
                               "--output", "-"], stdin=subprocess.PIPE, text=True) for i in range(12)]
    for i, p in enumerate(procs):
        p.communicate(f"PASS case {i}\n")
    text = log.read_text()
    for i in range(12):
        assert text.count(f"PASS case {i}\n") == 1
    assert text.count("# Verification log") == 1


def test_log_killed_writer_never_corrupts(tmp_path):
    # Kill writers at random points; the log must always hold whole entries only.
    log = tmp_path / "v.md"
    ptolab("log", "--log", log, "--host", "h", "--command", "seed", "--output", "-", input="PASS seed\n")
    for i in range(10):
        p = subprocess.Popen([CLI, "log", "--log", str(log), "--host", "h" * 20000, "--command", f"k{i}",
                              "--output", "-"], stdin=subprocess.PIPE, text=True)
        p.stdin.write("PASS k\n")
        p.stdin.close()
        time.sleep(0.001 * i)
        p.kill()
        p.wait()
        text = log.read_text()
        assert text.startswith("# Verification log") and text.endswith("```\n")
        assert text.count("## ") == text.count("Result lines:")


def test_doctor_defaults_to_the_interpreter_the_build_found(tmp_path):
    # No python3 on PATH at all: the build's interpreter (with NumPy) is probed.
    r = ptolab("doctor", "--json", env={"PATH": str(tmp_path), "PTOLAB_PYTHON": ""})
    assert r.returncode == 0, r.stderr
    tools = {t["name"]: t for t in json.loads(r.stdout)["tools"]}
    py = [t for name, t in tools.items() if name.startswith("python")][0]
    assert py["found"], py
    assert tools["numpy"]["found"], tools["numpy"]


# --- check ------------------------------------------------------------------

ACL_MAIN = os.environ.get("PTOLAB_ACL_MAIN")
ADD_LIB = os.environ.get("PTOLAB_ADD_LIB")
needs_acl_main = pytest.mark.skipif(not (ACL_MAIN and ADD_LIB and os.environ.get("PTOCC")),
                                    reason="needs ptocc, acl_main and the add kernel library (ctest sets them)")


@needs_acl_main
def test_run_trace_write_error_is_reported_and_the_run_keeps_its_status():
    r = ptolab("run", "--", ACL_MAIN, ADD_LIB, 256, 1, env={"PTO_SIM_TRACE": "/dev/full"})
    assert r.returncode == 0, r.stderr
    assert "PASS acl_main" in r.stdout
    assert r.stderr.count("ptosim: error: PTO_SIM_TRACE:") == 1, r.stderr
    assert ("ptosim: error: PTO_SIM_TRACE: cannot write /dev/full: No space left on device; the run goes on but "
            "/dev/full is incomplete: free space or set PTO_SIM_TRACE to a writable path\n") in r.stderr


@needs_acl_main
def test_check_log_write_error_is_reported(tmp_path):
    lib, _ = _mutated_add(tmp_path, "add_racy",
                          lambda src: [l for l in src if "wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)" not in l], "-O1")
    (tmp_path / "file").write_text("")
    log = tmp_path / "file" / "reports.jsonl"
    r = ptolab("check", "--tool=race", "--log", log, "--", ACL_MAIN, lib, 512, 1)
    assert r.returncode == 1, r.stderr
    assert (f"ptosim: error: PTO_SIM_CHECK_LOG: cannot write {log}: Not a directory; the reports above are "
            "not in the log: free space or set PTO_SIM_CHECK_LOG to a writable path\n") in r.stderr


def test_check_log_that_is_not_a_regular_file_is_a_usage_error():
    r = ptolab("check", "--log", "/dev/full", "--", "true")
    assert r.returncode == 2
    assert "--log /dev/full is not a regular file; ptolab check reads the reports back from it: name a file" in r.stderr


def test_check_unknown_tool_is_a_usage_error():
    r = ptolab("check", "--tool=sync,rce", "--", "true")
    assert r.returncode == 2
    assert "--tool sync,rce: unknown tool 'rce'" in r.stderr


def test_check_sets_the_environment_and_passes_the_status(tmp_path):
    r = ptolab("check", "--tool=race", "--", "sh", "-c", "echo $PTO_SIM_CHECK; exit 3")
    assert r.returncode == 3
    assert r.stdout == "race\n"
    assert "ptolab check: 0 report(s), 0 error(s); sh -c 'echo $PTO_SIM_CHECK; exit 3' exited with status 3" in r.stderr


@needs_acl_main
def test_check_clean_kernel_reports_nothing():
    r = ptolab("check", "--tool=sync,race", "--", ACL_MAIN, ADD_LIB, 1000, 4)
    assert r.returncode == 0, r.stderr
    assert "PASS acl_main" in r.stdout
    assert "ptolab check: 0 report(s), 0 error(s)" in r.stderr


def _mutated_add(tmp_path, name, mutate, opt):
    """The lab's add kernel with `mutate` applied to its lines, built by ptocc
    at `opt`; returns the kernel library and a function giving a line's number."""
    src = mutate(open(os.path.join(os.environ["PTOLAB_TEST_KERNELS"], "add.cpp")).read().splitlines(keepends=True))
    kernel = tmp_path / f"{name}.cpp"
    kernel.write_text("".join(src))
    lib = tmp_path / f"lib{name}.so"
    b = subprocess.run([os.environ["PTOCC"], "-fPIC", "-shared", "-xcce", "--cce-aicore-arch=dav-c220-vec",
                        "-DMEMORY_BASE", opt, str(kernel), "-o", str(lib)], capture_output=True, text=True)
    assert b.returncode == 0, b.stderr
    return lib, lambda text: 1 + next(i for i, l in enumerate(src) if text in l)


def _checked(tmp_path, tools, lib):
    """ptolab check of the ACL main running `lib`; the result and its reports."""
    log = tmp_path / "reports.jsonl"
    r = ptolab("check", f"--tool={tools}", "--log", log, "--", ACL_MAIN, lib, 512, 1)
    assert r.returncode == 1, r.stderr
    return r, [json.loads(l) for l in log.read_text().splitlines()]


@needs_acl_main
def test_check_kernel_without_wait_flag_reports_the_race(tmp_path):
    # The mutation of issue 13: the add kernel with its wait_flag(PIPE_MTE2, PIPE_V) removed.
    lib, line = _mutated_add(tmp_path, "add_racy",
                             lambda src: [l for l in src if "wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)" not in l], "-O1")
    r, reports = _checked(tmp_path, "all", lib)
    assert "aclrtSynchronizeStreamWithTimeout returned 507035" in r.stderr
    got = sorted((x["tool"], x["kind"], tuple(loc["line"] for loc in x["locations"]), x["count"]) for x in reports)
    load_a, load_b, add, set_ = line("TLOAD(a, g1)"), line("TLOAD(b, g2)"), line("TADD(c, a, b)"), line(
        "set_flag(PIPE_MTE2, PIPE_V")
    store = line("TSTORE(gy, c)")
    # Without the wait the second round's TADD is no longer ordered after the
    # first round's TSTORE either (that order went through MTE3 -> MTE2 -> V).
    assert got == sorted([
        ("racecheck", "read-after-write", (load_a, add), 2),
        ("racecheck", "read-after-write", (load_b, add), 2),
        ("racecheck", "write-after-read", (store, add), 1),
        ("synccheck", "redundant-set-flag", (set_, set_), 1),
        ("synccheck", "flag-never-waited", (set_,), 1),
    ])
    assert all(x["locations"][0]["file"].endswith("add_racy.cpp") for x in reports)
    assert f"ptolab check: 5 report(s) (3 racecheck, 2 synccheck), 5 error(s);" in r.stderr
    assert f"add_racy.cpp:{add}" in r.stderr


@needs_acl_main
def test_check_names_the_line_of_a_call_with_template_arguments(tmp_path):
    # TSTORE<V, G>(gy, c) is no macro invocation: the report must still name
    # its own line (the return address and the line table ptocc's -g1 gives),
    # not the TADD before it, at -O2 too.
    lib, line = _mutated_add(tmp_path, "add_store_template", lambda src: [
        l.replace("TSTORE(gy, c);", "TSTORE<V, G>(gy, c);") for l in src if "PIPE_V, PIPE_MTE3, EVENT_ID0" not in l
    ], "-O2")
    r, reports = _checked(tmp_path, "race", lib)
    got = sorted((x["kind"], tuple(loc["line"] for loc in x["locations"]), x["count"]) for x in reports)
    add, store = line("TADD(c, a, b)"), line("TSTORE<V, G>(gy, c)")
    # Without the (V, MTE3) flags the next round's loads are not ordered
    # after the add's reads either.
    assert got == sorted([
        ("read-after-write", (add, store), 2),
        ("write-after-read", (add, line("TLOAD(a, g1)")), 1),
        ("write-after-read", (add, line("TLOAD(b, g2)")), 1),
    ])
    raw = next(x for x in reports if x["kind"] == "read-after-write")
    assert raw["locations"][1]["file"].endswith("add_store_template.cpp")
    assert f"add_store_template.cpp:{store} reads UB" in r.stderr


@needs_acl_main
def test_check_names_a_load_past_the_requested_bytes_the_device_tolerates(tmp_path):
    # The tail tile loads all 256 columns of x1: 48 bytes past the 2000
    # bytes acl_main asks aclrtMalloc for with n = 500, inside the block's
    # padding. The device runs it and the sum is right (only the valid
    # columns are added); memcheck names the load, and the TADD whose src0
    # now has more valid columns than dst (pto-isa's debug-only rule);
    # --strict refuses the load.
    lib, line = _mutated_add(tmp_path, "add_overread", lambda src: [
        l.replace("G g1(x1 + t * kCols, typename G::Shape(len))", "G g1(x1 + t * kCols, typename G::Shape(kCols))")
         .replace("V a(len), b(len), c(len);", "V a(kCols), b(len), c(len);") for l in src], "-O1")
    load, add = line("TLOAD(a, g1)"), line("TADD(c, a, b)")
    plain = subprocess.run([ACL_MAIN, str(lib), "500", "1"], capture_output=True, text=True, timeout=120)
    assert plain.returncode == 0, plain.stderr
    assert "PASS acl_main" in plain.stdout
    assert f"ptosim: memcheck: note: gm-past-allocation in kernel" in plain.stderr
    assert f"TLOAD at {tmp_path}/add_overread.cpp:{load} accesses GM" in plain.stderr
    assert "runs 48 bytes past the 2000 bytes requested for the allocation at" in plain.stderr

    log = tmp_path / "overread.jsonl"
    r = ptolab("check", "--tool=mem", "--log", log, "--", ACL_MAIN, lib, 500, 1)
    assert r.returncode == 1, r.stderr
    reports = [json.loads(l) for l in log.read_text().splitlines()]
    got = sorted((x["tool"], x["kind"], tuple(loc["line"] for loc in x["locations"])) for x in reports)
    assert got == [("memcheck", "debug-only-contract", (add,)), ("memcheck", "gm-past-allocation", (load,))]
    past = next(x for x in reports if x["kind"] == "gm-past-allocation")
    assert past["range"][1] - past["range"][0] == 1024
    assert "ptolab check: 2 report(s) (2 memcheck), 2 error(s);" in r.stderr

    s = ptolab("check", "--strict", "--tool=mem", "--", ACL_MAIN, lib, 500, 1)
    assert s.returncode == 1, s.stderr
    assert f"add_overread.cpp:{load}: TLOAD at" in s.stderr
    assert "PTO_SIM_STRICT makes it a fault" in s.stderr
