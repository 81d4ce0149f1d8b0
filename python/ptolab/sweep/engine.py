"""A sweep from start to end: pick the shard, skip what a resumed report has,
run the rest on the executor, write each result (and its log) as it arrives,
report progress, and leave a complete report however the sweep ends."""
from __future__ import annotations

import os
import sys
import time

from . import report as rep
from .cases import Case, SweepError
from .executors import make_executor
from .shard import select_shard


def _eta(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}h{seconds // 60 % 60:02d}m" if seconds >= 3600 else f"{seconds // 60}m{seconds % 60:02d}s"


class Progress:
    """`[done/total] id: status (s); N not passing; ETA` on stderr as each case finishes."""

    def __init__(self, total: int, stream=sys.stderr, enabled: bool = True):
        self.total, self.done, self.failing = total, 0, 0
        self.started = time.monotonic()
        self.stream, self.enabled = stream, enabled

    def update(self, r: dict) -> None:
        self.done += 1
        self.failing += r["status"] not in rep.PASSED | rep.SKIPPED
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.started
        left = (elapsed / self.done) * (self.total - self.done)
        line = f"[{self.done}/{self.total}] {r['id']}: {r['status']} ({r.get('seconds') or 0:.1f} s)"
        if r.get("detail") and r["status"] not in rep.PASSED:
            line += f" — {str(r['detail'])[:160]}"
        line += f"; {self.failing} not passing; ETA {_eta(left) if self.done < self.total else 'done'}"
        print(line, file=self.stream, flush=True)


def run_sweep(cases: list[Case], out_dir: str, *, executor: str | None = None, jobs: int | None = None,
              timeout: float = 1800.0, sync_timeout: float | None = None, shard: tuple[int, int] | None = None,
              durations: dict[str, float] | None = None, resume: bool = False, name: str = "sweep",
              command: str = "", progress: bool = True, extra: dict | None = None) -> dict:
    """Runs the cases of this shard not already reported (with resume) and returns the report."""
    out_dir = os.path.abspath(out_dir)
    all_ids = [c.id for c in cases]
    mine = select_shard(cases, shard, durations or {})
    kept: list[dict] = []
    if resume and os.path.exists(os.path.join(out_dir, "sweep.json")):
        old = rep.load_report(out_dir)
        wanted = {c.id for c in mine}
        kept = [r for r in old["results"] if r["id"] in wanted]
    done_ids = {r["id"] for r in kept}
    todo = [c for c in mine if c.id not in done_ids]
    runner = make_executor(executor, jobs)
    doc = {"format": rep.FORMAT, "name": name, "command": command, "date": rep.now(),
           "executor": runner.description, "timeout_s": timeout, "sync_timeout_s": sync_timeout,
           "shard": {"index": shard[0] + 1, "count": shard[1]} if shard else None,
           "all_cases": all_ids, "cases": [c.id for c in mine], "resumed": len(kept) if resume else None,
           "results": kept, "elapsed_s": 0.0, **(extra or {})}
    log_dir = os.path.join(out_dir, "logs")
    os.makedirs(log_dir, exist_ok=True)
    rep.write_report(doc, out_dir, final=False)
    if resume and kept:
        print(f"ptolab sweep: {len(kept)} case(s) already in {out_dir}/sweep.json; running the other {len(todo)}",
              file=sys.stderr)
    bar = Progress(len(todo), enabled=progress)
    started = time.monotonic()

    def on_result(r: dict) -> None:
        text = r.pop("log_text", "")
        rel = os.path.join("logs", rep.log_name(r["id"]))
        rep.write_atomic(os.path.join(out_dir, rel), text)
        r["log"] = rel
        doc["results"].append(r)
        doc["elapsed_s"] = round(time.monotonic() - started, 1)
        rep.write_report(doc, out_dir, final=False)
        bar.update(r)

    try:
        runner.run([c.to_dict() for c in todo], timeout, sync_timeout, on_result)
    finally:
        doc["elapsed_s"] = round(time.monotonic() - started, 1)
        rep.write_report(doc, out_dir, final=True)
    doc["results"].sort(key=lambda r: r["id"])
    return doc


def failing(doc: dict) -> list[dict]:
    return [r for r in doc["results"] if r["status"] not in rep.PASSED | rep.SKIPPED]


__all__ = ["Progress", "SweepError", "failing", "run_sweep"]
