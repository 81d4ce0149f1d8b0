"""compile_kernel: builds a kernel library with the directory's compile
script or with ptocc (bisheng's command line, for the simulator or bisheng)."""
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from . import _core

_ARCH = {
    ("A2A3", "vec"): "dav-c220-vec",
    ("A2A3", "cube"): "dav-c220-cube",
    ("A2A3", "mix"): "dav-c220",
    ("A5", "vec"): "dav-c310-vec",
    ("A5", "cube"): "dav-c310-cube",
    ("A5", "mix"): "dav-c310",
}
_SCRIPTS = ("compile.sh", "build.sh")


class CompileError(RuntimeError):
    """The build failed; the message holds the exact command and its output."""


def find_ptocc():
    """$PTOCC, else the ptocc of the build this package came from, else PATH."""
    env = os.environ.get("PTOCC")
    if env:
        # A relative path would break once the compile runs in the source's directory.
        return os.path.abspath(env) if os.sep in env else env
    paths = Path(__file__).with_name("_build_paths.json")
    if paths.exists():
        candidate = json.loads(paths.read_text()).get("ptocc", "")
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("ptocc")
    if found:
        return found
    raise FileNotFoundError("ptocc not found: set PTOCC=/path/to/ptocc, put it on PATH, or build the ptocc target "
                            "(ninja -C build ptocc)")


def _run(cmd, cwd, env, timeout):
    # Own process group, so a hung compiler and everything it started is killed together.
    limit, source = (timeout, "timeout argument") if timeout is not None else _core.process_timeout()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True, text=True)
    try:
        out, _ = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise TimeoutError(f"compile timed out after {limit:g} s ({source}): {' '.join(map(str, cmd))}; raise "
                           f"PTO_PROCESS_TIMEOUT_S or pass timeout=")
    if proc.returncode != 0:
        raise CompileError(f"compile failed (exit status {proc.returncode}) in {cwd}:\n  "
                           f"{' '.join(map(str, cmd))}\n{out}")
    return out


def compile_kernel(source, output=None, *, kind="vec", target=None, arch=None, flags=(), include_dirs=(),
                   script=None, cwd=None, timeout=None, toolchain=None):
    """Builds a kernel library and returns its path.

    source: a kernel source file, or a directory. For a directory with a
    compile script (compile.sh or build.sh, or `script=`), the script runs
    there (bash, PTO_LIB_PATH passed through) and the library is `output` or
    the one .so it produced. Otherwise ptocc builds `source` with bisheng's
    flags: -fPIC -shared -xcce --cce-aicore-arch=<arch> -DMEMORY_BASE (A2A3)
    or -DREGISTER_BASE (A5) -O2, plus `flags`.

    kind: vec, cube or mix; target: A2A3 or A5 (default: the simulated SoC's);
    arch overrides both. toolchain: None (ptocc chooses), "sim" or "bisheng".
    """
    source = Path(source).resolve()
    env = dict(os.environ)
    if source.is_dir() or script is not None:
        workdir = Path(cwd) if cwd else (source if source.is_dir() else source.parent)
        script_path = Path(script) if script else next((workdir / s for s in _SCRIPTS if (workdir / s).exists()), None)
        if script_path is None:
            raise FileNotFoundError(f"{workdir}: no compile script ({', '.join(_SCRIPTS)}); pass script= or a "
                                    f"kernel source file")
        env.setdefault("PTOCC", _maybe_ptocc())
        started = time.time()
        _run(["bash", str(script_path)], workdir, env, timeout)
        if output is not None:
            out = (workdir / output).resolve()
            if not out.exists():
                raise CompileError(f"{script_path} finished but {out} does not exist; pass the library it builds as "
                                   f"output=")
            return str(out)
        fresh = [p for p in workdir.rglob("*.so") if p.stat().st_mtime >= started - 1]
        if len(fresh) != 1:
            names = ", ".join(str(p) for p in fresh) or "none"
            raise CompileError(f"{script_path} built {len(fresh)} .so files ({names}); pass output= to say which "
                               f"is the kernel library")
        return str(fresh[0])

    if not source.exists():
        raise FileNotFoundError(f"kernel source {source} does not exist")
    if arch is None:
        tgt = (target or _core.target_name()).upper()
        if (tgt, kind) not in _ARCH:
            raise ValueError(f"target={target!r}, kind={kind!r}: use target A2A3 or A5 and kind vec, cube or mix")
        arch = _ARCH[(tgt, kind)]
    memory = "-DREGISTER_BASE" if arch.startswith("dav-c310") else "-DMEMORY_BASE"
    out = Path(output).resolve() if output else source.with_name(f"lib{source.stem}.so")
    cmd = [find_ptocc()]
    if toolchain:
        cmd.append(f"--toolchain={toolchain}")
    cmd += ["-fPIC", "-shared", "-xcce", f"--cce-aicore-arch={arch}", memory, "-O2"]
    pto_lib = os.environ.get("PTO_LIB_PATH")
    if pto_lib and toolchain != "sim":
        cmd.append(f"-I{pto_lib}/include")
    cmd += [f"-I{d}" for d in include_dirs]
    cmd += list(flags)
    cmd += [str(source), "-o", str(out)]
    _run(cmd, cwd or source.parent, env, timeout)
    return str(out)


def _maybe_ptocc():
    try:
        return find_ptocc()
    except FileNotFoundError:
        return ""
