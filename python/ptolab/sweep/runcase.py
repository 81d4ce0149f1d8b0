"""One case in its own process, on whichever machine runs it. Self-contained
(standard library only) so a Dask worker without ptolab can run it.

Two timeout layers, as the seed asks: the case gets PTO_SYNC_TIMEOUT_S (the
per-synchronize limit its runner applies) and PTO_PROCESS_TIMEOUT_S, and this
function kills the case's whole process group when the whole-process limit
passes, whatever the case is doing (compiling, launching, tearing down)."""
from __future__ import annotations

import ctypes
import json
import os
import signal
import socket
import subprocess
import tempfile
import time

LOG_LIMIT = 4 << 20  # bytes of output kept per case: the last ones, where the failure usually is
KILL_GRACE_S = 5.0


def die_with_parent():
    """What the child runs before exec: a worker that is killed must not leave its case running, so the case
    gets SIGKILL with it. prctl is looked up here, in the parent, so the child between fork and exec does
    little (this module also travels to Dask workers by value, where a ctypes handle could not)."""
    try:
        prctl = ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        return None
    return lambda: prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _kill_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _last_line(text: str) -> str | None:
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()[:500]
    return None


def run_case(case: dict, timeout: float, sync_timeout: float | None = None) -> dict:
    """The result of one case: status pass / fail / timeout / error, its output (as `log_text`) and, when the
    case wrote JSON to $PTOLAB_SWEEP_RESULT, that `record` (whose "status" and "detail" win)."""
    limit = case.get("timeout") or timeout
    started_at = time.time()
    result = {"id": case["id"], "kind": case.get("kind", "command"), "host": socket.gethostname(),
              "worker_pid": os.getpid(), "meta": case.get("meta") or {}}
    with tempfile.TemporaryDirectory(prefix="ptolab-case-") as tmp:
        result_file = os.path.join(tmp, "result.json")
        env = dict(os.environ)
        if "PTOLAB_SWEEP_CASE_PYTHONPATH" in env:  # `ptolab sweep` put the engine first; the case gets the user's
            env["PYTHONPATH"] = env.pop("PTOLAB_SWEEP_CASE_PYTHONPATH")
            if not env["PYTHONPATH"]:
                del env["PYTHONPATH"]
        env.update(case.get("env") or {})
        env.update({"PTOLAB_SWEEP_RESULT": result_file, "PTOLAB_SWEEP_CASE": case["id"],
                    "PTOLAB_SWEEP_WORKER_PID": str(os.getpid()), "PTO_PROCESS_TIMEOUT_S": f"{limit:g}"})
        if sync_timeout:
            env["PTO_SYNC_TIMEOUT_S"] = f"{sync_timeout:g}"
        log_path = os.path.join(tmp, "log")
        t0 = time.monotonic()
        timed_out = False
        with open(log_path, "wb") as log:
            try:
                proc = subprocess.Popen(case["argv"], cwd=case.get("cwd") or None, env=env, stdin=subprocess.DEVNULL,
                                        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                        preexec_fn=die_with_parent())
            except OSError as e:
                result.update(status="error", exit_code=None, seconds=0.0, started=started_at, log_text="",
                              detail=f"cannot start {case['argv'][0]}: {e.strerror}; check the case's command "
                                     f"and cwd ({case.get('cwd') or os.getcwd()})")
                return result
            try:
                proc.wait(timeout=limit)
            except subprocess.TimeoutExpired:
                timed_out = True
                _kill_group(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=KILL_GRACE_S)
                except subprocess.TimeoutExpired:
                    pass
            _kill_group(proc.pid, signal.SIGKILL)  # whatever the case left behind in its group
            proc.wait()
        seconds = time.monotonic() - t0
        size = os.path.getsize(log_path)
        with open(log_path, "rb") as f:
            if size > LOG_LIMIT:
                f.seek(size - LOG_LIMIT)
            text = f.read().decode(errors="replace")
        if size > LOG_LIMIT:
            text = f"[ptolab sweep: the first {size - LOG_LIMIT} bytes of output are left out]\n" + text
        record = None
        if os.path.exists(result_file):
            try:
                with open(result_file) as f:
                    record = json.load(f)
            except (OSError, ValueError) as e:
                text += f"\n[ptolab sweep: the case's result file is not JSON ({e}); ignored]\n"
    rc = proc.returncode
    if timed_out:
        status, detail = "timeout", f"no result after {limit:g} s; the case's process group was killed"
    elif rc == 0:
        status, detail = "pass", None
    else:
        status = "fail"
        how = f"killed by signal {-rc}" if rc < 0 else f"exited with code {rc}"
        detail = f"{how}: {_last_line(text) or 'no output'}"
    if record is not None and not timed_out:
        status = record.get("status", status)
        detail = record.get("detail", detail)
    result.update(status=status, exit_code=rc, seconds=round(seconds, 3), started=started_at, detail=detail,
                  log_text=text)
    if record is not None:
        result["record"] = record
    return result
