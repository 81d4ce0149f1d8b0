"""The root's setenv.bash and `ptolab env` give Python what a CANN host has:
ml_dtypes/en_dtypes for pto-isa's gen_data.py scripts and an importable
torch_npu, using ptolab's stand-ins only where the interpreter has no real
package (cmake/cann_python_fallbacks.py, docs/drop-in.md "Python packages").

PTOLAB_CANN_ROOT names the root, PTOLAB_CLI the ptolab executable. With
PTO_ISA_ROOT set, pto-isa's own runner is also run directly on one testcase.
"""
import os
import shlex
import shutil
import subprocess
import sys
import textwrap

import pytest

ROOT = os.environ["PTOLAB_CANN_ROOT"]
CLI = os.environ["PTOLAB_CLI"]
PY = sys.executable  # Debian's interpreter, with NumPy and torch
GOLDEN = os.path.realpath(os.path.join(ROOT, "..", "conformance", "python"))
PROBE = textwrap.dedent("""
    import json, os, sys
    out = {"PYTHONPATH": os.environ.get("PYTHONPATH", ""), "PTOLAB_TORCH_NPU": os.environ.get("PTOLAB_TORCH_NPU")}
    for m in ("ml_dtypes", "en_dtypes", "torch_npu"):
        try:
            mod = __import__(m)
            out[m] = os.path.realpath(mod.__file__)
        except ImportError as e:
            out[m] = "ImportError: " + str(e)
    print(json.dumps(out))
""")


def shell(setup: str, env_extra=None, probe=True):
    """Runs `setup` in a clean bash (PATH starting at Debian's python3), then the probe."""
    env = {"PATH": os.path.dirname(PY) + ":/usr/bin:/bin", "HOME": os.environ.get("HOME", "/root")}
    # The run's build caches (scripts/test.sh, docs/testing.md): the seed's kernels this compiles are
    # the other seed tests' cache entries.
    env.update({v: os.environ[v] for v in ("PTOCC_CACHE_DIR", "XDG_CACHE_HOME", "TORCH_EXTENSIONS_DIR")
                if v in os.environ})
    env.update(env_extra or {})
    script = setup + (f"\nexec {PY} -c {shlex.quote(PROBE)}" if probe else "")
    r = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-3000:])
    if not probe:
        return r.stdout
    import json
    return json.loads(r.stdout.strip().splitlines()[-1])


def golden_built() -> bool:
    return all(os.path.isdir(os.path.join(GOLDEN, m)) for m in ("ml_dtypes", "en_dtypes"))


@pytest.fixture(scope="module", autouse=True)
def root_has_fallbacks():
    assert os.path.isfile(os.path.join(ROOT, "python", "fallbacks.py")), "the root lacks python/fallbacks.py"


def test_setenv_gives_ptolabs_golden_dtypes_and_torch_npu():
    if not golden_built():
        pytest.skip("ptolab's ml_dtypes/en_dtypes were not built (python3-dev, python3-numpy)")
    got = shell(f". {ROOT}/bin/setenv.bash")
    assert got["ml_dtypes"].startswith(os.path.join(GOLDEN, "ml_dtypes") + "/"), got
    assert got["en_dtypes"].startswith(os.path.join(GOLDEN, "en_dtypes") + "/"), got
    assert got["torch_npu"].endswith("torch_npu_sim/torch_npu/__init__.py"), got
    assert got["PTOLAB_TORCH_NPU"] == "sim"


def test_setenv_twice_does_not_stack_directories():
    once = shell(f". {ROOT}/bin/setenv.bash")["PYTHONPATH"]
    twice = shell(f". {ROOT}/bin/setenv.bash; . {ROOT}/bin/setenv.bash")["PYTHONPATH"]
    assert once == twice
    assert len(set(once.split(":"))) == len(once.split(":"))


def test_a_real_package_is_never_shadowed(tmp_path):
    for m in ("ml_dtypes", "torch_npu"):
        (tmp_path / m).mkdir()
        (tmp_path / m / "__init__.py").write_text("REAL = True\n")
    got = shell(f". {ROOT}/bin/setenv.bash", {"PYTHONPATH": str(tmp_path)})
    assert got["ml_dtypes"] == str(tmp_path / "ml_dtypes" / "__init__.py")
    assert got["torch_npu"] == str(tmp_path / "torch_npu" / "__init__.py")
    assert got["PTOLAB_TORCH_NPU"] is None  # the simulated torch_npu stays off
    if golden_built():
        assert got["en_dtypes"].startswith(os.path.join(GOLDEN, "en_dtypes") + "/")  # still missing, so ptolab's


def test_ptolab_env_agrees_with_setenv():
    via_setenv = shell(f". {ROOT}/bin/setenv.bash")
    via_cli = shell(f'eval "$({CLI} env)"', {"PTOLAB_CANN_ROOT": ROOT})
    assert via_cli == via_setenv


def test_pto_isa_runner_directly_after_setenv(tmp_path):
    """pto-isa's own tests/script/run_st.py, run as its README says, after sourcing setenv.bash."""
    pto_isa = os.environ.get("PTO_ISA_ROOT")
    if not pto_isa:
        pytest.skip("PTO_ISA_ROOT is not set (point it at a pto-isa checkout)")
    if not golden_built():
        pytest.skip("ptolab's ml_dtypes/en_dtypes were not built")
    tree = tmp_path / "pto-isa"
    shutil.copytree(pto_isa, tree, ignore=shutil.ignore_patterns(".git", "build"))
    case, target = ("textract_compact", "a5") if (tree / "tests/npu/a5/src/st/testcase/textract_compact").is_dir() \
        else ("tadd", "a3")
    out = shell(f". {ROOT}/bin/setenv.bash && cd {tree}/tests/script && "
                f"{PY} run_st.py -r sim -v {target} -t {case} 2>&1", probe=False)
    assert "No module named" not in out, out[-3000:]
    assert "[  PASSED  ]" in out, out[-3000:]


def test_seed_run_sim_direct_after_setenv(tmp_path):
    """The seed's `./run_sim.sh direct` after sourcing setenv.bash alone, without `ptolab run --sim`."""
    seed = os.environ.get("PTOLAB_SEED_REFERENCE", "/work/shared/seed/reference")
    if not os.path.isfile(os.path.join(seed, "static_single_core", "a2a3", "run_sim.sh")):
        pytest.skip(f"no seed reference tree at {seed}")
    work = tmp_path / "reference"
    shutil.copytree(seed, work, ignore=shutil.ignore_patterns("build", "outputs"))
    # PTOCC_CACHE_BASEDIR: the other tests' copies of the seed share ptocc's cache entries with this one.
    # The seed's 60 s whole-process timeout counts its kernels' compiles, which a loaded machine
    # with a cold cache can exceed; the timeout is not what this test is about.
    out = shell(f". {ROOT}/bin/setenv.bash && export PTOCC_CACHE_BASEDIR={work} PTO_PROCESS_TIMEOUT_S=900 && "
                f"cd {work}/static_single_core/a2a3 && ./run_sim.sh direct 2>&1",
                probe=False)
    assert "No module named" not in out, out[-3000:]
    passes = [l for l in out.splitlines() if l.startswith("PASS static_single_core/a2a3 ")]
    assert len(passes) == 3, out[-3000:]
