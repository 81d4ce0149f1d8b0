"""The CANN-shaped root's bin/msprof and bin/cannsim (docs/drop-in.md,
"msprof and cannsim"): what they pass to the application, and their errors.
Run by ctest with PTOLAB_CANN_ROOT pointing at build/cann."""
import os
import subprocess
import sys

ROOT = os.environ["PTOLAB_CANN_ROOT"]
MSPROF = os.path.join(ROOT, "bin", "msprof")
CANNSIM = os.path.join(ROOT, "bin", "cannsim")

# An application that prints what it was given: its arguments and the
# variables the entry points set.
SHOW = """import json, os, sys
keys = ["PTO_SIM_SOC", "SOC_VERSION", "PTO_SIM_PROFILE", "PTO_SIMULATOR", "ASCEND_HOME_PATH", "PTOLAB_TORCH_NPU"]
print(json.dumps({"argv": sys.argv[1:], "env": {k: os.environ.get(k) for k in keys},
                  "ld": os.environ.get("LD_LIBRARY_PATH", "").split(":")}))
"""


def run(*args, cwd=None, env=None, timeout=60):
    e = {k: v for k, v in os.environ.items() if k not in ("PTO_SIM_SOC", "SOC_VERSION", "PTO_SIM_PROFILE")}
    e.update(env or {})
    return subprocess.run(list(args), cwd=cwd, env=e, capture_output=True, text=True, timeout=timeout)


def shown(r):
    assert r.returncode == 0, r.stderr
    import json
    return json.loads(r.stdout.splitlines()[0])


def app(tmp_path):
    p = tmp_path / "show.py"
    p.write_text(SHOW)
    return [sys.executable, str(p)]


def test_msprof_runs_the_application_on_the_named_soc(tmp_path):
    out = tmp_path / "prof"
    r = run(MSPROF, "op", "simulator", "--soc-version=Ascend950PR_9599", "--timeout=30", f"--output={out}",
            *app(tmp_path), "--n", "128", "a b")
    s = shown(r)
    assert s["argv"] == ["--n", "128", "a b"]
    assert s["env"]["PTO_SIM_SOC"] == "Ascend950PR"
    assert s["env"]["SOC_VERSION"] == "Ascend950PR_9599"
    assert s["env"]["PTO_SIM_PROFILE"] == str(out)
    assert s["env"]["PTO_SIMULATOR"] == "1"
    assert s["env"]["ASCEND_HOME_PATH"] == ROOT
    assert os.path.join(ROOT, "tools/simulator/Ascend950PR_9599/lib") in s["ld"]
    assert out.is_dir()
    assert "msprof op simulator (ptosim, Ascend950PR_9599): the application exited with status 0" in r.stderr


def test_msprof_option_values_may_follow_as_separate_words(tmp_path):
    r = run(MSPROF, "op", "simulator", "--soc-version", "Ascend910B4", "--output", str(tmp_path / "o"),
            "--aic-metrics=PipeUtilization", *app(tmp_path))
    s = shown(r)
    assert s["env"]["PTO_SIM_SOC"] == "Ascend910B4"
    assert "msprof op simulator: note: --aic-metrics has no effect on ptosim" in r.stderr


def test_msprof_output_defaults_to_the_working_directory(tmp_path):
    s = shown(run(MSPROF, "op", "simulator", *app(tmp_path), cwd=tmp_path))
    assert s["env"]["PTO_SIM_PROFILE"] == str(tmp_path)
    assert s["env"]["PTO_SIM_SOC"] is None  # the process default (docs/soc-profiles.md)


def test_msprof_never_shows_an_earlier_runs_summary_as_its_own(tmp_path):
    out = tmp_path / "prof"
    out.mkdir()
    for f in ("summary.txt", "summary.json", "trace.json"):
        (out / f).write_text("from an earlier run\n")
    r = run(MSPROF, "op", "simulator", f"--output={out}", *app(tmp_path))
    assert "from an earlier run" not in r.stdout
    assert sorted(p.name for p in out.iterdir()) == []
    assert f"msprof op simulator (ptosim): the command made no simulated launch (nothing in {out})" in r.stderr


def test_msprof_passes_the_exit_status(tmp_path):
    r = run(MSPROF, "op", "simulator", f"--output={tmp_path}", sys.executable, "-c", "import sys; sys.exit(7)")
    assert r.returncode == 7
    assert "the application exited with status 7" in r.stderr


def test_msprof_timeout_stops_the_application(tmp_path):
    r = run(MSPROF, "op", "simulator", "--timeout=1", f"--output={tmp_path}", "sleep", "30",
            env={"PTO_PROCESS_KILL_AFTER_S": "1"})
    assert r.returncode == 124
    assert "--timeout=1" in r.stderr


def test_msprof_leaves_a_real_torch_npu_first_unless_forced(tmp_path):
    fake = tmp_path / "site" / "torch_npu"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    env = {"PYTHONPATH": str(tmp_path / "site"), "PTOLAB_PYTHON": sys.executable}
    r = run(MSPROF, "op", "simulator", f"--output={tmp_path / 'o'}", *app(tmp_path),
            env={**env, "PTOLAB_TORCH_NPU": ""})
    s = shown(r)
    assert f"msprof op simulator: a real torch_npu is installed ({fake / '__init__.py'})" in r.stderr
    assert ("msprof op simulator: continuing with the installed torch_npu first on the path; set "
            "PTOLAB_TORCH_NPU=force-sim to run torch_npu runners on ptosim") in r.stderr
    assert s["env"]["PTO_SIMULATOR"] == "1" and s["env"]["PTOLAB_TORCH_NPU"] == ""
    s = shown(run(MSPROF, "op", "simulator", f"--output={tmp_path / 'o'}", *app(tmp_path),
                  env={**env, "PTOLAB_TORCH_NPU": "force-sim"}))
    assert s["env"]["PTOLAB_TORCH_NPU"] == "force-sim"


def test_msprof_errors(tmp_path):
    cases = [
        ((MSPROF, "--application=./main"), "msprof: only the operator mode `msprof op simulator` runs here"),
        ((MSPROF, "op", "./main"), "msprof op: on-board profiling needs an NPU"),
        ((MSPROF, "op", "simulator", "--soc-version=Ascend310P3", "./main"),
         "msprof op simulator: 'Ascend310P3' is not a SoC ptosim simulates (known: Ascend910B1"),
        ((MSPROF, "op", "simulator", "--frobnicate=1", "./main"), "msprof op simulator: unknown option --frobnicate"),
        ((MSPROF, "op", "simulator", "--config=add.o"), "--config (an operator binary *.o) is not supported"),
        ((MSPROF, "op", "simulator", "--timeout=abc", "./main"), "msprof op simulator --timeout"),
        ((MSPROF, "op", "simulator", "--output=x"), "msprof op simulator: no application given"),
    ]
    for argv, message in cases:
        r = run(*argv, cwd=tmp_path)
        assert r.returncode == 2, (argv, r.stderr)
        assert message in r.stderr, (argv, r.stderr)
    r = run(MSPROF, "op", "simulator", cwd=tmp_path)
    assert "usage: msprof op simulator [--soc-version=<SoC>] [--timeout=<seconds>] [--output=<dir>]" in r.stderr


def test_cannsim_record_splits_user_arguments_like_a_shell(tmp_path):
    script = tmp_path / "entry.sh"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {tmp_path}/show.py \"$@\"\n")
    script.chmod(0o755)
    (tmp_path / "show.py").write_text(SHOW)
    out = tmp_path / "cs"
    r = run(CANNSIM, "record", "-s", "Ascend950", "-o", str(out), str(script),
            "-u", "--n 128 --name 'a b' \"c \\\"d\\\"\" e\\ f")
    s = shown(r)
    assert s["argv"] == ["--n", "128", "--name", "a b", 'c "d"', "e f"]
    assert s["env"]["PTO_SIM_SOC"] == "Ascend950PR"
    assert s["env"]["PTO_SIM_PROFILE"] == str(out)
    assert "cannsim record (ptosim, Ascend950): the application exited with status 0" in r.stderr


def test_cannsim_errors(tmp_path):
    cases = [
        ((CANNSIM,), "cannsim: no subcommand given"),
        ((CANNSIM, "report"), "cannsim: unknown subcommand 'report'"),
        ((CANNSIM, "record", "-o", "x", "./app"), "cannsim record: -s <SoC> is required"),
        ((CANNSIM, "record", "-s", "Ascend950", "-o", "x"), "cannsim record: no application given"),
        ((CANNSIM, "record", "-s", "Ascend950", "./app", "--n", "1"),
         "cannsim record: unexpected argument '--n': the application's arguments go in -u"),
        ((CANNSIM, "record", "-s", "Ascend950", "./app", "-u", "'open"), "cannsim record: unmatched ' in ''open'"),
        ((CANNSIM, "record", "-s", "Nope", "./app"), "cannsim record: 'Nope' is not a SoC ptosim simulates"),
    ]
    for argv, message in cases:
        r = run(*argv, cwd=tmp_path)
        assert r.returncode == 2, (argv, r.stderr)
        assert message in r.stderr, (argv, r.stderr)
