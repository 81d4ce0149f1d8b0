"""The sweep's report: JSON for tools (rewritten after every case, so a killed
sweep leaves what it finished), Markdown for people, JUnit XML for CI
dashboards, one log per case; and merging the reports of shards."""
from __future__ import annotations

import datetime
import json
import os
import re
import shutil
import tempfile
from xml.sax.saxutils import escape, quoteattr

from .cases import SweepError

FORMAT = "ptolab-sweep/1"
PASSED = {"pass", "built"}
SKIPPED = {"not-runnable", "skipped", "no-tests"}
# What differs between two runs of the same case without the case behaving differently.
VOLATILE = {"seconds", "started", "host", "worker_pid", "attempts", "log"}


def log_name(case_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=+,@-]", "_", case_id) + ".log"


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def write_atomic(path: str, text: str) -> None:
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, prefix="." + os.path.basename(path) + ".")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def comparable(result: dict) -> dict:
    """A result without what changes from run to run (times, machine, log path, attempts)."""
    out = {k: v for k, v in result.items() if k not in VOLATILE}
    if isinstance(out.get("record"), dict):
        out["record"] = {k: v for k, v in out["record"].items() if k not in VOLATILE}
    return out


def load_report(path: str) -> dict:
    """A report from its JSON file or the directory holding sweep.json."""
    if os.path.isdir(path):
        path = os.path.join(path, "sweep.json")
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        raise SweepError(f"cannot read the sweep report {path}: {e.strerror}; pass a sweep's --out directory "
                         "or its sweep.json") from None
    except ValueError as e:
        raise SweepError(f"{path} is not JSON ({e}); was the sweep that wrote it killed mid-write? "
                         "Reports are written by rename, so this file did not come from ptolab sweep") from None
    if doc.get("format") != FORMAT:
        raise SweepError(f"{path} is not a ptolab sweep report (format {doc.get('format')!r}, expected {FORMAT!r})")
    doc["_path"] = path
    return doc


def durations_of(path: str | None) -> dict[str, float]:
    if not path:
        return {}
    return {r["id"]: float(r.get("seconds") or 0.0) for r in load_report(path)["results"]}


def summary(results: list[dict]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    return dict(sorted(counts.items()))


def _cell(text) -> str:
    if text is None:
        return ""
    text = str(text).replace("\n", " ").replace("|", "\\|")
    return text if len(text) <= 200 else text[:197] + "..."


def render_markdown(doc: dict) -> str:
    results = doc["results"]
    s = summary(results)
    failing = [r for r in results if r["status"] not in PASSED | SKIPPED]
    shard = doc.get("shard")
    out = [f"# Sweep: {doc.get('name') or 'cases'}", "",
           f"- Date: {doc.get('date')}",
           f"- Command: `{doc.get('command')}`",
           f"- Executor: {doc.get('executor')}; whole-process timeout {doc.get('timeout_s', 0):g} s per case"
           + (f", per-sync timeout {doc['sync_timeout_s']:g} s" if doc.get("sync_timeout_s") else ""),
           f"- Cases: {len(results)} reported of {len(doc.get('cases', []))}"
           + (f" (shard {shard['index']}/{shard['count']} of {len(doc.get('all_cases', []))})" if shard else "")
           + (f"; merged from {len(doc['shards'])} shards" if doc.get("shards") else ""),
           f"- Wall time: {doc.get('elapsed_s', 0):.1f} s", "",
           "| Status | Cases |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in s.items()]
    missing = sorted(set(doc.get("cases", [])) - {r["id"] for r in results})
    if missing:
        out += ["", f"**Not run ({len(missing)}):** " + ", ".join(missing)]
    if failing:
        out += ["", "## Not passing", "", "| Case | Status | Detail | Log |", "|---|---|---|---|"]
        out += [f"| {r['id']} | {r['status']} | {_cell(r.get('detail'))} | {r.get('log') or ''} |" for r in failing]
    out += ["", "## All cases", "", "| Case | Status | Time (s) | Attempts |", "|---|---|---|---|"]
    out += [f"| {r['id']} | {r['status']} | {r.get('seconds', 0):.1f} | {r.get('attempts', 1)} |" for r in results]
    return "\n".join(out) + "\n"


def render_junit(doc: dict, log_dir: str | None = None) -> str:
    results = doc["results"]
    name = doc.get("name") or "sweep"
    fails = sum(r["status"] not in PASSED | SKIPPED | {"timeout", "error", "lost"} for r in results)
    errors = sum(r["status"] in {"timeout", "error", "lost"} for r in results)
    skipped = sum(r["status"] in SKIPPED for r in results)
    total = sum(r.get("seconds") or 0 for r in results)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name={quoteattr(name)} tests="{len(results)}" failures="{fails}" errors="{errors}" '
           f'skipped="{skipped}" time="{total:.3f}">',
           f'  <testsuite name={quoteattr(name)} tests="{len(results)}" failures="{fails}" errors="{errors}" '
           f'skipped="{skipped}" time="{total:.3f}">']
    for r in results:
        cls, _, short = r["id"].rpartition(":") if ":" in r["id"] else ("", "", r["id"])
        attrs = f'classname={quoteattr(name + ("." + cls if cls else ""))} name={quoteattr(short)} ' \
                f'time="{r.get("seconds") or 0:.3f}"'
        detail = r.get("detail") or r["status"]
        if r["status"] in PASSED:
            out.append(f"    <testcase {attrs}/>")
            continue
        out.append(f"    <testcase {attrs}>")
        if r["status"] in SKIPPED:
            out.append(f"      <skipped message={quoteattr(detail)}/>")
        else:
            tag = "error" if r["status"] in {"timeout", "error", "lost"} else "failure"
            tail = ""
            if log_dir and r.get("log") and os.path.exists(os.path.join(log_dir, r["log"])):
                with open(os.path.join(log_dir, r["log"]), errors="replace") as f:
                    tail = "".join(f.readlines()[-50:])
            out.append(f"      <{tag} type={quoteattr(r['status'])} message={quoteattr(detail)}>"
                       f"{escape(tail)}</{tag}>")
        if r.get("log"):
            out.append(f"      <system-out>{escape('log: ' + r['log'])}</system-out>")
        out.append("    </testcase>")
    out += ["  </testsuite>", "</testsuites>"]
    return "\n".join(out) + "\n"


def write_report(doc: dict, out_dir: str, final: bool = True) -> None:
    """sweep.json always; sweep.md and junit.xml when `final` (the sweep ended, however it ended)."""
    doc = {k: v for k, v in doc.items() if not k.startswith("_")}
    doc["results"] = sorted(doc["results"], key=lambda r: r["id"])
    write_atomic(os.path.join(out_dir, "sweep.json"), json.dumps(doc, indent=1, sort_keys=True) + "\n")
    if final:
        write_atomic(os.path.join(out_dir, "sweep.md"), render_markdown(doc))
        write_atomic(os.path.join(out_dir, "junit.xml"), render_junit(doc, out_dir))


def merge_reports(docs: list[dict]) -> dict:
    """One report of the shards' results. Fails, naming the case and the shard, when the shards were cut
    from different case lists, a case is reported twice, or a case of the sweep has no result."""
    if not docs:
        raise SweepError("ptolab sweep merge: no reports given; pass each shard's --out directory")
    first = docs[0]
    all_cases = first.get("all_cases") or first.get("cases", [])
    seen: dict[str, str] = {}
    results = []
    for d in docs:
        where = d.get("_path", "?")
        if (d.get("all_cases") or d.get("cases", [])) != all_cases:
            raise SweepError(f"ptolab sweep merge: {where} was cut from a different case list than "
                             f"{first.get('_path')}; every shard must run the same sweep (same cases, same "
                             "--durations report)")
        for r in d["results"]:
            if r["id"] in seen:
                raise SweepError(f"ptolab sweep merge: case {r['id']} is reported twice, by {seen[r['id']]} and "
                                 f"{where}; shards must not overlap (same --shard N everywhere, distinct I)")
            seen[r["id"]] = where
            results.append(dict(r, log=os.path.join(os.path.dirname(where), r["log"]) if r.get("log") else None))
    missing = [c for c in all_cases if c not in seen]
    if missing:
        owners = {}
        for d in docs:
            for c in d.get("cases", []):
                owners[c] = d.get("_path")
        where = "; ".join(f"{c} (shard {owners[c]})" if c in owners else f"{c} (no shard given was assigned it)"
                          for c in missing[:10])
        raise SweepError(f"ptolab sweep merge: {len(missing)} case(s) have no result: {where}"
                         + (" ..." if len(missing) > 10 else "")
                         + "; re-run those shards with --resume, or pass the missing shards' reports")
    extra = sorted(set(seen) - set(all_cases))
    if extra:
        raise SweepError(f"ptolab sweep merge: {', '.join(extra[:10])} are not cases of the sweep; "
                         f"reported by {seen[extra[0]]}")
    merged = {k: v for k, v in first.items() if not k.startswith("_")}
    merged.update(shard=None, cases=list(all_cases), all_cases=list(all_cases), results=results,
                  shards=[{"report": d.get("_path"), "shard": d.get("shard"), "elapsed_s": d.get("elapsed_s"),
                           "executor": d.get("executor")} for d in docs],
                  elapsed_s=max(d.get("elapsed_s") or 0 for d in docs), date=now())
    return merged


def copy_logs(merged: dict, out_dir: str) -> None:
    """The shards' logs into out_dir/logs, the results pointing at the copies."""
    os.makedirs(os.path.join(out_dir, "logs"), exist_ok=True)
    for r in merged["results"]:
        src = r.get("log")
        if src and os.path.exists(src):
            rel = os.path.join("logs", log_name(r["id"]))
            if os.path.abspath(src) != os.path.abspath(os.path.join(out_dir, rel)):
                shutil.copyfile(src, os.path.join(out_dir, rel))
            r["log"] = rel
