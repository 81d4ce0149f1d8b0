#!/usr/bin/python3
"""Run pto-isa's NPU system-test suite on ptosim through pto-isa's own runner.

Each testcase goes through ``tests/script/run_st.py -r sim -v a3|a5 -t <case>``
of a private copy of the pto-isa checkout (the runner builds inside the
checkout), with ``ASCEND_HOME_PATH`` pointing at ptolab's CANN-shaped root.
The runner's output is parsed into one record per testcase, written as JSON,
and rendered as ``docs/conformance.md``. ``--from-json`` only renders.

Usage and how to read the report: docs/conformance-run.md.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import datetime
import fcntl
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = "/usr/bin/python3"  # the interpreter with NumPy; the runner and gen_data.py run under it
FORMAT = 1

sys.path.insert(0, os.path.join(REPO, "python"))
from ptolab.sweep.cases import Case, SweepError  # noqa: E402  (standard library only; no compiled runtime)
from ptolab.sweep.report import load_report  # noqa: E402
from ptolab.sweep.runcase import die_with_parent  # noqa: E402

# run_st.py's -v flag and the SoC it derives from it (run_st.py main()).
TARGETS = {
    "a2a3": {"flag": "a3", "soc": "Ascend910B1"},
    "a5": {"flag": "a5", "soc": "Ascend910_9599"},
}

# Outcomes, in the order the report lists them.
STATUSES = {
    "pass": "every gtest case passed",
    "fail": "built and ran; at least one gtest case failed",
    "fault": "ptosim reported a fault (ptosim: fatal / ptosim: error)",
    "crash": "the test binary died without a ptosim fault line",
    "timeout": "the whole runner exceeded --timeout",
    "compile-error": "kernel or host did not build",
    "gen-data-failed": "gen_data.py (the NumPy golden) failed",
    "not-runnable": "needs a Python module absent here; built, not run",
    "built": "built (compile-only run)",
    "no-tests": "ran, but gtest ran no cases",
    "runner-error": "the runner failed before any of the above",
}

ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")
COMPILE_ERROR_RE = re.compile(r"^(?P<loc>[^\s:][^:]*:\d+(?::\d+)?): (?:fatal )?error: ")
OTHER_ERROR_RES = [
    re.compile(r"^ptocc: error: "),
    re.compile(r"undefined reference to "),
    re.compile(r"^\S*ld(?:\.lld|\.gold)?: (?:error: |cannot find )"),
    re.compile(r"^clang\S*: error: "),
    re.compile(r"^\S*(?:g\+\+|c\+\+|gcc|cc): (?:fatal )?error: "),
]
CMAKE_ERROR_RE = re.compile(r"^CMake Error")
BUILT_TARGET_RE = re.compile(r"Built target (\S+)")
FAILED_TARGET_RE = re.compile(r"^make\[\d+\]: \*\*\* \[\S*?CMakeFiles/([^/\s]+)\.dir/")
RUNNING_RE = re.compile(r"^\[==========\] Running (\d+) tests?")
RUN_RE = re.compile(r"^\[ RUN      \] (\S+)")
OK_RE = re.compile(r"^\[       OK \] (\S+)")
FAILED_RE = re.compile(r"^\[  FAILED  \] (\S+) \(")
SKIPPED_RE = re.compile(r"^\[  SKIPPED \] (\S+)")
FAULT_RE = re.compile(r"ptosim: (?:fatal|error)\b")
# A finding the device does not check: the kernel ran on (docs/semantics.md, "Faults and reports").
TOLERATED_RE = re.compile(r"ptosim: memcheck: note: (\S+) in kernel")
MESSAGE_RES = [
    re.compile(r"^\[ERROR\]"),                 # ERROR_LOG of pto-isa's test_common.h
    re.compile(r"^idx: .*\[ERROR\]"),          # ResultCmp's first mismatching element
    re.compile(r"^out size is not eq"),        # ResultCmp's size check
    re.compile(r": Failure$"),                 # a gtest assertion
    FAULT_RE,
]
RETURN_CODE_RE = re.compile(r"run command failed with return code (-?\d+)")
MISSING_MODULE_RE = re.compile(r"ModuleNotFoundError: No module named '([^']+)'")


# --------------------------------------------------------------------------- parsing

def clean(text: str) -> list[str]:
    """Lines of runner output without colour codes or trailing blanks."""
    return [ANSI_RE.sub("", line).rstrip() for line in text.splitlines()]


DOTDOT_RE = re.compile(r"(?<![^/\s])(?!\.\.?/)[^/\s:]+/\.\./")


def normalize(text: str | None, prefixes: dict[str, str]) -> str | None:
    """Collapse ``dir/../`` in paths, then replace machine-specific prefixes (longest first)."""
    if text is None:
        return None
    while True:
        shorter = DOTDOT_RE.sub("", text, count=1)
        if shorter == text:
            break
        text = shorter
    for prefix in sorted(prefixes, key=len, reverse=True):
        if prefix:
            text = text.replace(prefix, prefixes[prefix])
    return text


def parse_build(output: str, testcase: str) -> dict:
    """What the build produced and, if it failed, its first error line."""
    lines = clean(output)
    built = {m.group(1) for line in lines for m in [BUILT_TARGET_RE.search(line)] if m}
    kernel = any(t in built for t in (testcase + "_kernel", testcase + "_kernel_mix"))
    host = testcase in built
    # `make -j` interleaves the compilers' output in whatever order they
    # finish: of all compile errors, the one earliest in (file, line) order
    # is the same on every run (on one line, the first the compiler printed).
    def position(line: str) -> tuple:
        path, _, rest = COMPILE_ERROR_RE.match(line).group("loc").partition(":")
        return path, int(rest.split(":")[0])

    errors = [line.strip() for line in lines if COMPILE_ERROR_RE.match(line)]
    error = min(errors, key=position) if errors else None
    if error is None:
        for i, line in enumerate(lines):
            if any(r.search(line) for r in OTHER_ERROR_RES):
                error = line.strip()
                break
            if CMAKE_ERROR_RE.match(line):
                detail = next((l.strip() for l in lines[i + 1:] if l.strip()), "")
                error = (line.strip() + " " + detail).strip()
                break
    # Of the targets that failed, the first by name: which one make reports
    # first is as much a matter of timing as the error lines.
    failed = min((m.group(1) for line in lines for m in [FAILED_TARGET_RE.match(line)] if m), default=None)
    return {"kernel_built": kernel, "host_built": host, "compile_error": error, "failed_target": failed}


def _block_message(block: list[str]) -> str | None:
    for i, line in enumerate(block):
        text = line.strip()
        if not any(r.search(text) for r in MESSAGE_RES):
            continue
        if text.endswith(": Failure"):
            detail = []
            for nxt in block[i + 1:i + 4]:
                nxt = nxt.strip()
                if not nxt or nxt.startswith("["):
                    break
                detail.append(nxt)
            return "; ".join([text] + detail)
        return text
    return None


def parse_gtest(output: str) -> dict:
    """gtest counts, the first failing case and its first assertion/diff line."""
    lines = clean(output)
    total = None
    passed = 0
    skipped = 0
    failed = []
    current, block = None, []
    first_failure = message = None
    crashed_in = None
    for line in lines:
        m = RUNNING_RE.match(line)
        if m and total is None:
            total = int(m.group(1))
            continue
        m = RUN_RE.match(line)
        if m:
            current, block = m.group(1), []
            continue
        if current is None:
            continue
        if OK_RE.match(line):
            passed += 1
            current = None
            continue
        if SKIPPED_RE.match(line):
            skipped += 1
            current = None
            continue
        m = FAILED_RE.match(line)
        if m and m.group(1) == current:
            failed.append(current)
            if first_failure is None:
                first_failure, message = current, _block_message(block)
            current = None
            continue
        block.append(line)
    if current is not None:  # the binary stopped inside a case
        crashed_in = current
        if first_failure is None:
            first_failure, message = current, _block_message(block)
    return {
        "gtest_total": total,
        "gtest_passed": passed if total is not None else None,
        "gtest_skipped": skipped,
        "gtest_failed": len(failed),
        "first_failure": first_failure,
        "failure_message": message,
        "crashed_in": crashed_in,
    }


def parse_faults(output: str) -> list[str]:
    """ptosim's fault lines (``ptosim: fatal ...`` / ``ptosim: error ...``)."""
    out = []
    for line in clean(output):
        m = FAULT_RE.search(line)
        if m:
            out.append(line[m.start():].strip())
    return out


def parse_tolerated(output: str) -> list[str]:
    """ptosim's notes of findings the device tolerates, one per kind and site, in order."""
    out = []
    for line in clean(output):
        m = TOLERATED_RE.search(line)
        if m:
            note = line[m.start():].strip()
            if note not in out:
                out.append(note)
    return out


def parse_exit_code(output: str) -> int | None:
    """The return code run_st.py reports for the command that failed, if any."""
    codes = RETURN_CODE_RE.findall(output)
    return int(codes[-1]) if codes else None


def runner_phase(output: str) -> str:
    """How far the runner got: build, gen_data or run."""
    if re.search(r"^run command: \./", output, re.M):
        return "run"
    if "compile process:" in output or re.search(r"^run command: cp .*gen_data\.py", output, re.M):
        return "gen_data"
    return "build"


def required_modules(source: str) -> list[str]:
    """Top-level modules a gen_data.py imports outside try blocks."""
    found: list[str] = []

    class Visitor(ast.NodeVisitor):
        def visit_Try(self, node):  # optional imports: the script copes without them
            for part in node.handlers + node.orelse + node.finalbody:
                self.visit(part)

        visit_TryStar = visit_Try

        def visit_Import(self, node):
            for alias in node.names:
                found.append(alias.name.split(".")[0])

        def visit_ImportFrom(self, node):
            if node.level == 0 and node.module:
                found.append(node.module.split(".")[0])

    Visitor().visit(ast.parse(source))
    return sorted(set(found))


def classify(output: str, testcase: str, *, returncode: int | None, timed_out: bool = False,
             timeout_s: float | None = None, compile_only: bool = False) -> dict:
    """One testcase's record from the runner's combined stdout+stderr."""
    rec = {"status": None, "detail": None, "exit_code": parse_exit_code(output)}
    rec.update(parse_build(output, testcase))
    rec.update(parse_gtest(output))
    rec["faults"] = parse_faults(output)
    rec["tolerated"] = parse_tolerated(output)
    rec["timeout_phase"] = None
    build_ok = "compile process:" in output
    if build_ok:  # build_project() printed make's output after make succeeded: both were built
        rec["kernel_built"] = rec["host_built"] = True
    missing = MISSING_MODULE_RE.findall(output)
    lines = clean(output)

    if timed_out:
        rec["status"] = "timeout"
        rec["timeout_phase"] = runner_phase(output)
        rec["detail"] = f"no result after {timeout_s:g} s (in {rec['timeout_phase']})"
        if rec["faults"]:
            rec["detail"] += "; " + rec["faults"][0]
    elif "build failed:" in output or (not build_ok and rec["compile_error"]):
        rec["status"] = "compile-error"
        rec["detail"] = rec["compile_error"] or "build failed (no error line found; see the log)"
        if rec["failed_target"]:
            rec["detail"] = f"{rec['failed_target']}: {rec['detail']}"
    elif compile_only and build_ok and returncode == 0:
        rec["status"] = "built"
    elif "gen golden failed:" in output:
        if missing:
            rec["status"] = "not-runnable"
            rec["detail"] = f"gen_data.py needs Python module {missing[0]} (not installed here)"
        else:
            rec["status"] = "gen-data-failed"
            tb = [l.strip() for l in lines if re.match(r"^\w+(Error|Exception)\b.*:", l.strip())]
            rec["detail"] = tb[0] if tb else "gen_data.py failed (see the log)"
    elif rec["faults"]:
        rec["status"] = "fault"
        rec["detail"] = rec["faults"][0]
    elif rec["gtest_total"] is not None and rec["crashed_in"] is None and returncode == 0 \
            and rec["gtest_failed"] == 0 and rec["gtest_passed"] + rec["gtest_skipped"] == rec["gtest_total"]:
        rec["status"] = "pass" if rec["gtest_total"] > 0 else "no-tests"
    elif rec["gtest_failed"]:
        rec["status"] = "fail"
        rec["detail"] = rec["failure_message"]
    elif rec["gtest_total"] is not None or "run binary failed:" in output:
        rec["status"] = "crash"
        code = rec["exit_code"]
        where = f" in {rec['crashed_in']}" if rec["crashed_in"] else ""
        rec["detail"] = f"test binary exited with code {code}{where}" if code is not None \
            else f"test binary stopped{where}"
        if rec["failure_message"]:
            rec["detail"] += "; " + rec["failure_message"]
    else:
        rec["status"] = "runner-error"
        last = [l.strip() for l in lines if l.startswith("run failed:") or "Error" in l]
        rec["detail"] = last[-1] if last else f"runner exited with code {returncode}"
    return rec


def record(target: str, testcase: str, output: str, *, returncode: int | None, timed_out: bool = False,
           timeout_s: float | None = None, compile_only: bool = False, declared: int | None = None,
           seconds: float = 0.0, log: str | None = None, prefixes: dict[str, str] | None = None) -> dict:
    """The JSON record of one testcase run: classify() with paths made machine-independent."""
    rec = {"target": target, "testcase": testcase, "gtest_declared": declared}
    rec.update(classify(output, testcase, returncode=returncode, timed_out=timed_out, timeout_s=timeout_s,
                        compile_only=compile_only))
    prefixes = prefixes or {}
    for k in ("compile_error", "failure_message", "detail"):
        rec[k] = normalize(rec[k], prefixes)
    rec["faults"] = [normalize(x, prefixes) for x in rec["faults"]]
    # Kept comparable between runs (ptolab sweep diff): no private-copy paths, no addresses.
    rec["tolerated"] = [without_addresses(normalize(x, prefixes)) for x in rec["tolerated"]]
    rec.update({"seconds": round(seconds, 1), "log": log})
    return rec


def not_runnable_fields(missing: list[str], python: str) -> dict:
    """How a testcase whose gen_data.py imports modules this Python lacks is reported (built, not run)."""
    return {"status": "not-runnable",
            "detail": f"gen_data.py needs Python module{'s' if len(missing) > 1 else ''} "
                      f"{', '.join(missing)} (not installed for {python})"}


def not_runnable_record(target: str, testcase: str, missing: list[str], python: str,
                        declared: int | None = None) -> dict:
    """A testcase whose gen_data.py imports modules this Python lacks, neither built nor run."""
    rec = record(target, testcase, "", returncode=None, declared=declared)
    rec.update(not_runnable_fields(missing, python))
    return rec


# --------------------------------------------------------------------------- report

def _cell(text) -> str:
    if text is None or text == "":
        return ""
    text = str(text).replace("\n", " ").replace("|", "\\|")
    if len(text) > 220:
        text = text[:217] + "..."
    return f"`{text}`" if "`" not in text else text


def _built(rec) -> str:
    if rec["status"] == "not-runnable" and not rec.get("kernel_built") and not rec.get("host_built"):
        return "not built"
    parts = [n for n, k in (("kernel", "kernel_built"), ("host", "host_built")) if rec.get(k)]
    return "+".join(parts) if parts else "no"


def _gtest(rec) -> str:
    if rec.get("gtest_total") is None:
        return "—"
    return f"{rec['gtest_passed']}/{rec['gtest_total']}"


def summarize(results: list[dict], target: str) -> dict:
    rs = [r for r in results if r["target"] == target]
    ran = [r for r in rs if r.get("gtest_total") is not None]
    return {
        "testcases": len(rs),
        "built": sum(1 for r in rs if r.get("kernel_built") and r.get("host_built")),
        "passing": sum(1 for r in rs if r["status"] == "pass"),
        "gtest_passed": sum(r["gtest_passed"] for r in ran),
        "gtest_run": sum(r["gtest_total"] for r in ran),
        "gtest_declared": sum(r.get("gtest_declared") or 0 for r in rs),
        "not_runnable": sum(1 for r in rs if r["status"] == "not-runnable"),
        "timeouts": sum(1 for r in rs if r["status"] == "timeout"),
        "faults": sum(1 for r in rs if r["status"] == "fault"),
    }


GOLDEN_DTYPES = ("ml_dtypes", "en_dtypes")


def _golden_dtypes_line(module: str, m: dict) -> str:
    if m.get("module") == "ptolab":
        return (f"ptolab's own module (`{m.get('path')}`, built from src/golden_dtypes on ptosim's codecs), "
                "not the PyPI package")
    if m.get("module") == "installed":
        return f"the installed {module} package"
    return "none (testcases that import it are not runnable)"


REASONS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "conformance-reasons.json")


def load_reasons(path: str = REASONS_FILE) -> dict[str, str]:
    """The written analysis of testcases that do not pass: "target/testcase" -> why, with its evidence."""
    if not os.path.isfile(path):
        return {}
    with open(path) as f:
        return {k: v for k, v in json.load(f).items() if not k.startswith("_")}


def render_reasons(results: list[dict], targets: list[str], reasons: dict[str, str],
                   reasons_name: str = "docs/conformance-reasons.json") -> list[str]:
    """The section naming, for every testcase that does not pass, why (or that nobody has looked yet)."""
    out = ["", "## Why the others do not pass", "",
           f"From `{reasons_name}` (written by hand, one entry per testcase that does not pass; "
           "a reason kept for a testcase that now passes is not shown).", ""]
    missing = 0
    for t in targets:
        for r in sorted((r for r in results if r["target"] == t and r["status"] != "pass"),
                        key=lambda r: r["testcase"]):
            why = reasons.get(f"{t}/{r['testcase']}")
            missing += why is None
            out.append(f"- **{t}/{r['testcase']}** ({r['status']}): " + (why or "not analysed yet."))
    if missing:
        out += ["", f"{missing} testcase(s) without a written reason."]
    return out


def render_tolerated(results: list[dict], targets: list[str]) -> list[str]:
    """The passing testcases that rely on behaviour the device tolerates and ptosim reports."""
    rows = [r for t in targets for r in sorted((r for r in results if r["target"] == t), key=lambda r: r["testcase"])
            if r["status"] == "pass" and r.get("tolerated")]
    if not rows:
        return []
    out = ["", "## Passing on tolerated device behaviour", "",
           "These testcases pass, and are counted as passing above, because ptosim does what the device does "
           "where a rule is not checked by the hardware or an address the documents give the kernel "
           "(docs/semantics.md, \"Faults and reports\"). The checker's finding, as the run printed it "
           "(`ptolab check` reports it, as an error or for a fixed private address a warning; `PTO_SIM_STRICT=1` "
           "makes it a fault):", ""]
    for r in rows:
        for note in r["tolerated"]:
            out.append(f"- **{r['target']}/{r['testcase']}**: {_tolerated_text(note)}")
    return out


NOTE_RE = re.compile(r"note: (?P<kind>\S+) in kernel '(?P<kernel>.*?)' on (?P<core>[^:]+): (?P<op>.+?) at "
                     r"(?P<file>\S+?):(?P<line>\d+)(?::| )(?P<what>.*?); the device does not check this")


def without_addresses(text: str) -> str:
    """A note without the GM addresses it names, which change from run to run (ASLR)."""
    text = re.sub(r"GM \[0x[0-9a-f]+, 0x[0-9a-f]+\), which ", "GM, which ", text)
    return re.sub(r" at 0x[0-9a-f]+", "", text)


def _tolerated_text(note: str) -> str:
    """A note as "memcheck <kind> at <file:line> (<op>, <core> of kernel K): <what>", paths from the pto-isa
    root and run-dependent addresses left out, so that re-runs render the same."""
    m = NOTE_RE.search(note)
    if not m:
        return f"`{_cell(note)}`"
    path = m["file"]
    for root in ("/tests/", "/kernels/", "/include/"):
        if root in path:
            path = path[path.index(root) + 1:]
            break
    what = without_addresses(m["what"].strip())
    return (f"memcheck `{m['kind']}` at `{path}:{m['line']}` ({m['op']}, {m['core']} of kernel "
            f"`{m['kernel']}`): {what}")


def _jobs(doc: dict) -> str:
    jobs = doc.get("jobs", 1)
    return f"{jobs} job(s)" if isinstance(jobs, int) else f"executor {jobs}"


def render_markdown(doc: dict, reasons: dict[str, str] | None = None,
                    reasons_path: str = REASONS_FILE) -> str:
    results = doc["results"]
    targets = [t for t in TARGETS if any(r["target"] == t for r in results)]
    mode = "compile only (kernel and host built, nothing run)" if doc.get("compile_only") \
        else "build, generate goldens, run"
    out = [
        "# pto-isa NPU system tests on ptosim",
        "",
        "Generated by `scripts/conformance.sh` from `" + doc.get("json", "conformance.json") +
        "`; regenerate with `--from-json`, do not edit by hand. How to run and read it: "
        "[conformance-run.md](conformance-run.md). pto-isa's communication suite (`tests/npu/*/comm`, "
        "ranks started by MPI) has its own generated page, [conformance-comm.md](conformance-comm.md).",
        "",
        "**This is ptosim, ptolab's simulator, not an NPU.** Each testcase was built with ptocc (as "
        "`bisheng`) and run through pto-isa's own runner `tests/script/run_st.py -r sim` against "
        "ptolab's CANN-shaped root. A pass means ptosim's results matched pto-isa's NumPy goldens "
        "under the testcase's own comparison; it says nothing about real hardware, its timing or "
        "bisheng.",
        "",
        f"- pto-isa commit: `{doc['pto_isa'].get('commit') or 'unknown'}`"
        + (f" ({doc['pto_isa']['commit_date']})" if doc["pto_isa"].get("commit_date") else ""),
        f"- ptolab commit (the root's tree): `{doc.get('ptolab', {}).get('commit') or 'unknown'}`"
        + (" with uncommitted changes" if doc.get("ptolab", {}).get("dirty") else "")
        + (f" ({doc['ptolab']['note']})" if doc.get("ptolab", {}).get("note") else ""),
        f"- Root (`ASCEND_HOME_PATH`): `{doc.get('root', '?')}`"
        + (f"; its bisheng, lib64/libascendcl.so and libruntime_camodel.so built by {doc['root_built']}"
           if doc.get("root_built") else ""),
        *[f"- {m} for the gen_data.py scripts: {_golden_dtypes_line(m, doc[m])}"
          for m in GOLDEN_DTYPES if doc.get(m)],
        f"- Date: {doc['date']}",
        f"- Command: `{doc['command']}`",
        f"- Mode: {mode}; per-testcase timeout {doc.get('timeout_s', 0):g} s; "
        + (f"{doc['shards']} shards merged, each {_jobs(doc)}" if doc.get("shards") else _jobs(doc))
        + f"; wall time {doc.get('elapsed_s', 0):.0f} s" + (" (the longest shard)" if doc.get("shards") else ""),
        *[f"- Re-run with `--merge` on {r['date']} (ptolab `{r.get('ptolab', {}).get('commit') or 'unknown'}`"
          + (" with uncommitted changes" if r.get("ptolab", {}).get("dirty") else "")
          + f"): {', '.join(r['cases'])}; command `{r['command']}`" for r in doc.get("reruns", [])],
        "",
        "## Summary",
        "",
        "| Target | Testcases | Built kernel+host | Passing all cases | gtest cases passed / run | "
        "gtest cases declared | Not runnable here | Timeouts | ptosim faults |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for t in targets:
        s = summarize(results, t)
        ran = doc.get("compile_only") is not True
        passing = f"{s['passing']}/{s['testcases']}" if ran else "— (not run)"
        gtest = f"{s['gtest_passed']}/{s['gtest_run']}" if ran else "— (not run)"
        out.append(f"| {t} | {s['testcases']} | {s['built']}/{s['testcases']} | {passing} | "
                   f"{gtest} | {s['gtest_declared']} | {s['not_runnable']} | "
                   f"{s['timeouts']} | {s['faults']} |")
    out += ["", "\"gtest cases declared\" counts the `TEST`/`TEST_F` macros in each testcase's `main.cpp`, "
            "including testcases that did not build or run."]
    if doc.get("skipped"):
        out += ["", "Not counted: " + ", ".join(f"{s['target']}/{s['testcase']}" for s in doc["skipped"]) +
                " (" + doc["skipped"][0]["reason"] + ")."]
    out += ["", "Statuses:", ""]
    used = {r["status"] for r in results}
    out += [f"- `{k}`: {v}" for k, v in STATUSES.items() if k in used]
    for t in targets:
        out += ["", f"## {t}", "",
                "| Testcase | Status | Built | gtest passed | First failing case | Detail | Time (s) |",
                "|---|---|---|---|---|---|---|"]
        for r in sorted((r for r in results if r["target"] == t), key=lambda r: r["testcase"]):
            out.append(f"| {r['testcase']} | {r['status']} | {_built(r)} | {_gtest(r)} | "
                       f"{_cell(r.get('first_failure'))} | {_cell(r.get('detail'))} | "
                       f"{r.get('seconds', 0):.0f} |")
    out += render_tolerated(results, targets)
    if doc.get("compile_only") is not True and any(r["status"] != "pass" for r in results):
        out += render_reasons(results, targets, load_reasons(reasons_path) if reasons is None else reasons,
                              os.path.relpath(os.path.abspath(reasons_path), REPO))
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- running

def suite_testcases(pto_isa: str, target: str) -> tuple[list[str], list[str]]:
    """(testcases the suite's CMake list registers, testcase directories it leaves out)."""
    tdir = os.path.join(pto_isa, "tests", "npu", target, "src", "st", "testcase")
    with open(os.path.join(tdir, "CMakeLists.txt")) as f:
        text = f.read()
    m = re.search(r"set\(ALL_TESTCASES(.*?)\)", text, re.S)
    listed = m.group(1).split() if m else []
    dirs = sorted(d for d in os.listdir(tdir) if os.path.isfile(os.path.join(tdir, d, "CMakeLists.txt")))
    return [d for d in dirs if d in listed], [d for d in dirs if d not in listed]


def opt_in_testcases(pto_isa: str, target: str) -> list[str]:
    """The suite's opt-in testcases (its CMake OPT_IN_TESTCASES): left out of a whole-suite build, but built
    and run when run_st.py is given one by name, so a run takes one only when --cases names it."""
    tdir = os.path.join(pto_isa, "tests", "npu", target, "src", "st", "testcase")
    with open(os.path.join(tdir, "CMakeLists.txt")) as f:
        text = re.sub(r"#[^\n]*", "", f.read())
    m = re.search(r"set\(OPT_IN_TESTCASES(.*?)\)", text, re.S)
    return m.group(1).split() if m else []


def declared_tests(case_dir: str) -> int | None:
    path = os.path.join(case_dir, "main.cpp")
    if not os.path.exists(path):
        return None
    with open(path, errors="replace") as f:
        return len(re.findall(r"^\s*(?:TEST|TEST_F)\s*\(", f.read(), re.M))


def importable(modules: set[str], python: str, env: dict | None = None) -> set[str]:
    if not modules:
        return set()
    code = ("import importlib.util, sys\n"
            "for m in sys.argv[1:]:\n"
            "    print(m if importlib.util.find_spec(m) else '')\n")
    out = subprocess.run([python, "-c", code, *sorted(modules)], capture_output=True, text=True, check=True,
                         env=env)
    return {l for l in out.stdout.split() if l}


def ptolab_module_dir(root: str, module: str) -> str | None:
    """The directory holding ptolab's build of `module` (src/golden_dtypes), built next to the root."""
    build = os.environ.get("PTOLAB_BUILD_DIR", os.path.join(REPO, "build"))
    for base in (os.path.join(os.path.dirname(root), "conformance", "python"),
                 os.path.join(build, "conformance", "python")):
        d = os.path.join(base, module)
        if os.path.isdir(d) and any(f.startswith(module + ".") and f.endswith(".so") for f in os.listdir(d)):
            return d
    return None


def choose_module(module: str, root: str, python: str, env: dict) -> dict:
    """Which `module` (ml_dtypes, en_dtypes) the gen_data.py scripts import: the installed
    package if the interpreter has one, else ptolab's (PYTHONPATH in env is set for it)."""
    if importable({module}, python, env):
        return {"module": "installed", "path": None}
    shim = ptolab_module_dir(root, module)
    if shim is None:
        return {"module": None, "path": None}
    env["PYTHONPATH"] = shim + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return {"module": "ptolab", "path": shim}


def git_info(path: str) -> dict:
    def git(*args):
        r = subprocess.run(["git", "-C", path, *args], capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else None
    return {"commit": git("rev-parse", "HEAD"), "commit_date": git("log", "-1", "--format=%cI"),
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no"))}


def ptolab_tree_of(root: str) -> str:
    """The ptolab tree the root was built from (the git tree holding it), else this checkout."""
    d = root if os.path.isdir(root) else REPO
    r = subprocess.run(["git", "-C", d, "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else REPO


def root_built(root: str, soc: str) -> str | None:
    """When the root's compiler and libraries were last built (newest mtime, links followed, UTC)."""
    files = [os.path.join(root, "bin", "bisheng"), os.path.join(root, "lib64", "libascendcl.so"),
             os.path.join(root, "tools", "simulator", soc, "lib", "libruntime_camodel.so")]
    times = [os.stat(os.path.realpath(f)).st_mtime for f in files if os.path.exists(f)]
    if not times:
        return None
    return datetime.datetime.fromtimestamp(max(times), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def ptolab_info(root: str) -> dict:
    info = git_info(ptolab_tree_of(root))
    return {"commit": info["commit"], "dirty": info["dirty"]}


def make_copy(pto_isa: str, dest: str) -> None:
    """A private copy of what the runner and the suite's CMake read and write."""
    ignore = shutil.ignore_patterns("build", "__pycache__", ".git")
    shutil.copytree(os.path.join(pto_isa, "include"), os.path.join(dest, "include"), ignore=ignore)
    shutil.copytree(os.path.join(pto_isa, "tests"), os.path.join(dest, "tests"), ignore=ignore)


COMPILE_ONLY_DRIVER = """\
import os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tests", "script"))
import run_st  # pto-isa's runner, unmodified: its environment set-up and build, nothing else
os.chdir(sys.argv[2])
try:
    run_st.set_env_variables("sim", sys.argv[3])
    run_st.build_project("sim", sys.argv[3], sys.argv[4])
except Exception as e:
    print(f"run failed: {e}", file=sys.stderr)
    sys.exit(1)
"""


# The runner has a process group of its own (make, compilers, the test binary), so that a timeout kills all
# of it; the engine stopping a case only reaches this script's group, so the script passes it on.
RUNNER_GROUPS: set[int] = set()


def kill_runner(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def stop_runners(signum, frame) -> None:
    for pid in list(RUNNER_GROUPS):
        kill_runner(pid)
    sys.exit(128 + signum)


def run_one(copy: str, target: str, testcase: str, args, env: dict,
            compile_only: bool = False) -> tuple[str, int | None, bool, float]:
    st_dir = os.path.join(copy, "tests", "npu", target, "src", "st")
    if compile_only:
        cmd = [args.python, "-c", COMPILE_ONLY_DRIVER, copy, st_dir, TARGETS[target]["soc"], testcase]
    else:
        cmd = [args.python, os.path.join(copy, "tests", "script", "run_st.py"),
               "-r", "sim", "-v", TARGETS[target]["flag"], "-t", testcase]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=copy, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True, preexec_fn=die_with_parent())
    RUNNER_GROUPS.add(proc.pid)
    timed_out = False
    try:
        out, _ = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        kill_runner(proc.pid)
        out, _ = proc.communicate()
    finally:
        RUNNER_GROUPS.discard(proc.pid)
    return out.decode(errors="replace"), proc.returncode, timed_out, time.monotonic() - start


def harvest_outputs(copy: str, target: str, testcase: str, dest: str) -> list[str]:
    """Copies what the testcase's binary wrote (its outputs, not gen_data.py's inputs and goldens) to
    dest/<target>/<testcase>/<gtest case>/<file>; returns the relative paths. The runner creates
    build/bin/camodel_log just before it starts the binary, after gen_data.py has run, so a file
    in a case directory written at or after that moment is an output."""
    build = os.path.join(copy, "tests", "npu", target, "src", "st", "build")
    marker = os.path.join(build, "bin", "camodel_log")
    if not os.path.isdir(marker):
        return []  # the binary never ran
    started = os.stat(marker).st_mtime_ns
    kept = []
    for case in sorted(os.listdir(build)):
        d = os.path.join(build, case)
        if case in ("bin", "CMakeFiles") or not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            f = os.path.join(d, name)
            if os.path.isfile(f) and os.stat(f).st_mtime_ns >= started:
                rel = os.path.join(case, name)
                os.makedirs(os.path.join(dest, target, testcase, case), exist_ok=True)
                shutil.copyfile(f, os.path.join(dest, target, testcase, rel))
                kept.append(rel)
    return kept


SWEEP_GRACE_S = 60  # the engine's limit per case is the runner's plus this, so the script reports the phase


def default_root() -> str:
    return os.path.join(os.environ.get("PTOLAB_BUILD_DIR", os.path.join(REPO, "build")), "cann")


def default_work() -> str:
    """Where one-testcase runs keep their copies when no --work is given: one directory per user and
    machine, kept between runs so that a copy (and ptocc's cache entries keyed by its path) is reused."""
    return os.path.join(tempfile.gettempdir(), f"ptolab-conformance-{os.getuid()}")


@contextlib.contextmanager
def claim_copy(work: str, pto_isa: str):
    """A private copy of the checkout for this process: the first copy<i> whose lock nobody holds. The lock
    is flock'd, so a killed run releases it; the copy is reused only when it was made from the same clean
    commit of the same checkout (its stamp), and otherwise made afresh."""
    os.makedirs(work, exist_ok=True)
    i = 0
    while True:
        fd = os.open(os.path.join(work, f"copy{i}.lock"), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            os.close(fd)
            i += 1
    try:
        dest = os.path.join(work, f"copy{i}")
        stamp_path = os.path.join(dest, ".ptolab-copy")
        info = git_info(pto_isa)
        stamp = json.dumps(dict(info, path=pto_isa), sort_keys=True)
        reusable = bool(info["commit"]) and not info["dirty"]
        current = None
        if os.path.exists(stamp_path):
            with open(stamp_path) as f:
                current = f.read()
        if not reusable or current != stamp:
            shutil.rmtree(dest, ignore_errors=True)
            make_copy(pto_isa, dest)
            if reusable:  # written last: a copy cut short has no stamp and is made again
                with open(stamp_path, "w") as f:
                    f.write(stamp)
        yield dest
    finally:
        os.close(fd)


SEED_SITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "conformance_site")


def runner_env(root: str, python: str, work: str) -> tuple[dict, dict]:
    """The runner's environment and the golden-dtypes modules it gets (choose_module)."""
    shim = os.path.join(work, "shim")
    os.makedirs(shim, exist_ok=True)
    for name in ("python3", "python"):
        try:
            os.symlink(python, os.path.join(shim, name))
        except FileExistsError:  # another testcase of this work directory made it
            pass
    env = dict(os.environ)
    env.update({"ASCEND_HOME_PATH": root, "PATH": shim + os.pathsep + env.get("PATH", ""),
                "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"})
    # Some gen_data.py scripts draw unseeded inputs: one seed for every
    # interpreter the runner starts makes two runs test the same inputs.
    env.setdefault("PTOLAB_CONFORMANCE_SEED", "0")
    # Others seed from hash(name) of a string (mgather, mgather_gm2l1, mscatter at 3186c381), which
    # Python salts per interpreter unless PYTHONHASHSEED fixes it.
    env.setdefault("PYTHONHASHSEED", "0")
    env["PYTHONPATH"] = SEED_SITE + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env, {m: choose_module(m, root, python, env) for m in GOLDEN_DTYPES}


def check_paths(pto_isa: str, root: str) -> None:
    if not os.path.isfile(os.path.join(pto_isa, "tests", "script", "run_st.py")):
        raise SweepError(f"{pto_isa} is not a pto-isa checkout (no tests/script/run_st.py)")
    if not os.access(os.path.join(root, "bin", "bisheng"), os.X_OK):
        raise SweepError(f"no CANN-shaped root at {root} (bin/bisheng missing); build it or pass --root")


def case_dir(pto_isa: str, target: str, testcase: str) -> str:
    return os.path.join(pto_isa, "tests", "npu", target, "src", "st", "testcase", testcase)


def sweep_cases(pto_isa: str, target: str, wanted: list[str] | None, *, root: str, timeout: float,
                python: str = PYTHON, compile_only: bool = False, work: str | None = None, logs: str | None = None,
                keep_outputs: str | None = None) -> tuple[list[Case], dict]:
    """One sweep case per testcase of the suite(s) (each runs this script with --one-case), and the run's
    context, kept in the sweep report so that --from-sweep renders the same header as a direct run."""
    pto_isa, root = os.path.abspath(pto_isa), os.path.abspath(root)
    check_paths(pto_isa, root)
    targets = ["a2a3", "a5"] if target == "both" else [target]
    wanted = [c for c in wanted or [] if c]
    cases, skipped = [], []
    for t in targets:
        listed, unlisted = suite_testcases(pto_isa, t)
        # An opt-in testcase named in --cases runs, as run_st.py builds it when named; unnamed, it is left out.
        named = [c for c in opt_in_testcases(pto_isa, t) if c in unlisted and c in wanted]
        skipped += [{"target": t, "testcase": c, "reason": "directory not in the suite's ALL_TESTCASES; "
                     "run_st.py rejects it"} for c in unlisted if c not in named and (not wanted or c in wanted)]
        unknown = [c for c in wanted if c not in listed and c not in unlisted]
        if unknown and len(targets) == 1:
            raise SweepError(f"no testcase {', '.join(unknown)} in {t}")
        for c in sorted(listed + named):
            if wanted and c not in wanted:
                continue
            argv = [python, os.path.abspath(__file__), pto_isa, "--target", t, "--one-case", c, "--root", root,
                    "--timeout", f"{timeout:g}", "--python", python]
            for flag, value in (("--work", work), ("--logs", logs), ("--keep-outputs", keep_outputs)):
                if value:
                    argv += [flag, os.path.abspath(value)]
            if compile_only:
                argv.append("--compile-only")
            cases.append(Case(id=f"{t}:{c}", argv=argv, timeout=timeout + SWEEP_GRACE_S, kind="conformance",
                              meta={"target": t, "testcase": c,
                                    "declared": declared_tests(case_dir(pto_isa, t, c))}))
    env = dict(os.environ)
    golden_dtypes = {m: choose_module(m, root, python, env) for m in GOLDEN_DTYPES}
    tree = ptolab_tree_of(root)
    context = {
        "format": FORMAT, "simulator": "ptosim",
        "pto_isa": dict(git_info(pto_isa), path=pto_isa),
        "root": root,
        "ptolab": ptolab_info(root),  # before the run: the root's tree may move on while it runs
        "root_built": root_built(root, TARGETS[targets[0]]["soc"]),
        **{m: dict(choice, path=normalize(choice["path"], {tree + "/": "ptolab/", REPO + "/": "ptolab/"}))
           for m, choice in golden_dtypes.items()},
        "compile_only": bool(compile_only), "timeout_s": timeout, "skipped": skipped,
    }
    return cases, context


def run_single(args) -> int:
    """--one-case: one testcase in a private copy; its record to --result-json, the runner's output to stdout."""
    pto_isa, root = os.path.abspath(args.pto_isa), os.path.abspath(args.root)
    check_paths(pto_isa, root)
    t, c = args.target, args.one_case
    if t == "both":
        raise SweepError("--one-case needs --target a2a3 or --target a5")
    listed, unlisted = suite_testcases(pto_isa, t)
    if c not in listed and c not in opt_in_testcases(pto_isa, t):
        raise SweepError(f"no testcase {c} in {t}" + (" (its directory is not in the suite's ALL_TESTCASES)"
                                                      if c in unlisted else ""))
    work = os.path.abspath(args.work or default_work())
    env, _ = runner_env(root, args.python, work)
    with open(os.path.join(case_dir(pto_isa, t, c), "gen_data.py")) as f:
        needs = required_modules(f.read())
    have = importable(set(needs), args.python, env)
    missing = [m for m in needs if m not in have]
    # A testcase needing a module this Python lacks is still built, so the report says whether it would build.
    build_only = bool(args.compile_only or missing)
    signal.signal(signal.SIGTERM, stop_runners)
    with claim_copy(work, pto_isa) as copy:
        out, rc, timed_out, secs = run_one(copy, t, c, args, env, compile_only=build_only)
        outputs = harvest_outputs(copy, t, c, args.keep_outputs) if args.keep_outputs and not build_only else None
    sys.stdout.write(out)
    log = None
    if args.logs:
        os.makedirs(args.logs, exist_ok=True)
        log = os.path.join(os.path.abspath(args.logs), f"{t}-{c}.log")
        with open(log, "w") as f:
            f.write(out)
    rec = record(t, c, out, returncode=rc, timed_out=timed_out, timeout_s=args.timeout, compile_only=build_only,
                 declared=declared_tests(case_dir(pto_isa, t, c)), seconds=secs, log=log,
                 prefixes={copy + "/": "", root: "$ASCEND_HOME_PATH", REPO + "/": "ptolab/",
                           ptolab_tree_of(root) + "/": "ptolab/"})
    if outputs is not None:
        rec["outputs"] = outputs
    if missing and rec["status"] not in ("compile-error", "timeout"):
        rec.update(not_runnable_fields(missing, args.python))
    result = args.result_json or os.environ.get("PTOLAB_SWEEP_RESULT")
    if result:
        with open(result, "w") as f:
            json.dump(rec, f, indent=1, sort_keys=True)
    print(f"conformance: {result_line(rec)}", file=sys.stderr)
    return 0


def doc_from_sweep(sweep: dict, base: str) -> dict:
    """The conformance results of a sweep report (one run, or shards merged): each case's record, or for a
    case that ended without one (the engine's limit, a lost worker) a record saying so. `base` is the
    report's directory, which its log paths are relative to."""
    if "conformance" not in sweep:
        raise SweepError(f"{base} is not a conformance sweep (no \"conformance\" context); make it with "
                         "ptolab sweep --conformance or scripts/conformance.py")
    results = []
    for r in sweep["results"]:
        rec = r.get("record")
        if rec is None:
            m = r["meta"]
            rec = record(m["target"], m["testcase"], "", returncode=r.get("exit_code"), declared=m.get("declared"),
                         seconds=r.get("seconds") or 0.0)
            rec.update(status="timeout" if r["status"] == "timeout" else "runner-error", detail=r.get("detail"))
        rec = dict(rec)
        if not rec.get("log") and r.get("log"):
            rec["log"] = os.path.join(base, r["log"])
        results.append(rec)
    executor = sweep.get("executor") or ""
    shards = sweep.get("shards") or []
    return dict(sweep["conformance"], date=sweep.get("date"), command=sweep.get("command"),
                jobs=int(executor.split(":")[1]) if re.fullmatch(r"local:\d+", executor) else executor,
                shards=len(shards) or None, elapsed_s=sweep.get("elapsed_s") or 0.0,
                results=sorted(results, key=lambda r: (r["target"], r["testcase"])))


def run_suite(args) -> dict:
    """The suite as a sweep on the engine's local pool (--jobs testcases at once), then its records."""
    from ptolab.sweep.engine import run_sweep
    build = os.environ.get("PTOLAB_BUILD_DIR", os.path.join(REPO, "build"))
    logs = os.path.abspath(args.logs or os.path.join(build, "conformance", "logs"))
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="ptolab-conformance-")
    cases, context = sweep_cases(args.pto_isa, args.target, (args.cases or "").split(","), root=args.root,
                                 timeout=args.timeout, python=args.python, compile_only=args.compile_only,
                                 work=work, logs=logs, keep_outputs=args.keep_outputs)
    for m in GOLDEN_DTYPES:
        print(f"conformance: {m} for gen_data.py: {_golden_dtypes_line(m, context[m])}", file=sys.stderr)
    out = os.path.abspath(args.sweep_out or os.path.join(os.path.dirname(logs), "sweep"))
    try:
        sweep = run_sweep(cases, out, executor=f"local:{max(1, min(args.jobs, len(cases) or 1))}",
                          name=f"conformance-{args.target}", command=args.command_line,
                          extra={"conformance": context})
    finally:
        if not args.keep_work and not args.work:
            shutil.rmtree(work, ignore_errors=True)
    return doc_from_sweep(sweep, out)


def result_line(rec: dict) -> str:
    line = f"{rec['target']}/{rec['testcase']}: {rec['status']}, built {_built(rec)}, gtest {_gtest(rec)}"
    if rec.get("first_failure"):
        line += f", first failure {rec['first_failure']}"
    if rec.get("detail"):
        line += f" — {rec['detail']}"
    return line


def merge_results(json_path: str, new: dict) -> dict:
    """The recorded results with the records of `new` put in place of the same target/testcase."""
    with open(json_path) as f:
        doc = json.load(f)
    fresh = {(r["target"], r["testcase"]): r for r in new["results"]}
    doc["results"] = [fresh.pop((r["target"], r["testcase"]), r) for r in doc["results"]] + list(fresh.values())
    runs = doc.setdefault("reruns", [])
    runs.append({"date": new["date"], "command": new["command"],
                 "ptolab": new.get("ptolab", {}), "cases": sorted(f"{t}/{c}" for t, c in
                                                                 ((r["target"], r["testcase"]) for r in new["results"]))})
    return doc


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog="See docs/conformance-run.md.")
    p.add_argument("pto_isa", nargs="?", help="pto-isa checkout (read only; never written)")
    p.add_argument("--target", choices=["a2a3", "a5", "both"], default="a2a3")
    p.add_argument("--jobs", type=int, default=1, help="testcases run at once (default 1)")
    p.add_argument("--timeout", type=float, default=1200, help="seconds per testcase, build included (default 1200)")
    p.add_argument("--compile-only", action="store_true", help="only the runner's environment set-up and build")
    p.add_argument("--cases", help="comma-separated testcase names (default: the whole suite)")
    p.add_argument("--from-json", metavar="JSON", help="render the markdown from recorded results; run nothing")
    p.add_argument("--out", default=os.path.join(REPO, "docs", "conformance.md"), help="markdown report")
    p.add_argument("--json", help="results file (default: --out with .json)")
    p.add_argument("--reasons", default=REASONS_FILE, metavar="JSON",
                   help="the written reasons of testcases that do not pass (default docs/conformance-reasons.json; "
                        "a run with pto-isa's own headers keeps its own)")
    p.add_argument("--merge", action="store_true",
                   help="with --cases: replace those testcases' records in the existing --json results and re-render "
                        "the whole report, instead of writing a report of the cases alone")
    p.add_argument("--root", default=default_root(), help="CANN-shaped root (default build/cann)")
    p.add_argument("--work", help="work directory for the private copies (default: a temporary one, removed)")
    p.add_argument("--keep-work", action="store_true", help="keep the temporary work directory")
    p.add_argument("--logs", help="per-testcase runner logs (default build/conformance/logs; with --one-case, "
                   "none: the output goes to stdout)")
    p.add_argument("--keep-outputs", metavar="DIR",
                   help="copy each testcase's output files to DIR/<target>/<testcase>/ (scripts/differential.py)")
    p.add_argument("--sweep-out", metavar="DIR",
                   help="the sweep report of the run (default: sweep/ next to --logs)")
    p.add_argument("--from-sweep", metavar="REPORT",
                   help="render from a conformance sweep report (a sweep.json or its directory; shards merged "
                        "with ptolab sweep merge); runs nothing")
    p.add_argument("--one-case", metavar="TESTCASE",
                   help="run this testcase of --target alone (a sweep case): its record to --result-json")
    p.add_argument("--result-json", metavar="FILE", help="with --one-case: where the record goes "
                   "(default $PTOLAB_SWEEP_RESULT)")
    p.add_argument("--python", default=PYTHON, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    try:
        return run(p, args, argv)
    except SweepError as e:
        print(f"conformance: {e}", file=sys.stderr)
        return 2


def run(p, args, argv) -> int:
    args.command_line = os.environ.get("PTOLAB_CONFORMANCE_COMMAND") or \
        "scripts/conformance.py " + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    json_path = args.json or os.path.splitext(args.out)[0] + ".json"

    if args.one_case:
        if not args.pto_isa:
            p.error("--one-case needs a pto-isa checkout")
        return run_single(args)
    if args.from_json:
        with open(args.from_json) as f:
            doc = json.load(f)
    else:
        if args.from_sweep:
            sweep = load_report(args.from_sweep)
            doc = doc_from_sweep(sweep, os.path.dirname(os.path.abspath(sweep["_path"])))
        elif not args.pto_isa:
            p.error("a pto-isa checkout is required unless --from-json or --from-sweep is given")
        else:
            doc = run_suite(args)
        if args.merge:
            doc = merge_results(json_path, doc)
        doc["json"] = os.path.relpath(json_path, os.path.dirname(os.path.abspath(args.out)))
        os.makedirs(os.path.dirname(os.path.abspath(json_path)), exist_ok=True)
        with open(json_path, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(render_markdown(doc, reasons_path=args.reasons))
    if not args.from_json:
        print(f"conformance: wrote {json_path} and {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
