#!/usr/bin/env python3
"""Checks a ptosim trace against what Perfetto's and Chrome's trace-event
importers need (the JSON object form of the Trace Event Format), and a
PTO_SIM_PROFILE summary.json against the fields docs/cost-model.md lists.

    check_trace.py trace.json [summary.json]
"""
import json
import sys

NUM = (int, float)
# Required keys and their types by phase.
PHASES = {
    "X": {"name": str, "ph": str, "pid": int, "tid": int, "ts": NUM, "dur": NUM, "args": dict},
    "M": {"name": str, "ph": str, "pid": int, "args": dict},
    "s": {"name": str, "ph": str, "pid": int, "tid": int, "ts": NUM, "id": int, "cat": str},
    "f": {"name": str, "ph": str, "pid": int, "tid": int, "ts": NUM, "id": int, "cat": str, "bp": str},
}


def fail(msg):
    print("check_trace: " + msg)
    sys.exit(1)


def check_trace(path):
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail(path + ": not an object with a traceEvents array")
    events = doc["traceEvents"]
    if not events:
        fail(path + ": no events")
    flows = {}
    named = set()
    for i, e in enumerate(events):
        ph = e.get("ph")
        if ph not in PHASES:
            fail("%s: event %d has phase %r" % (path, i, ph))
        for k, t in PHASES[ph].items():
            if k not in e or not isinstance(e[k], t) or isinstance(e[k], bool):
                fail("%s: event %d (%s) lacks %s of type %s: %r" % (path, i, ph, k, t, e))
        if ph == "X":
            if e["dur"] < 0 or e["ts"] < 0:
                fail("%s: event %d has a negative time" % (path, i))
            # An instruction's slice, or one kernel's slice of an ACL graph
            # replay on the "ACL graph replays" track (docs/cost-model.md).
            keys = ((("launch", int), ("kernel", str), ("note", str)) if e.get("cat") == "graph"
                    else (("loc", str), ("bytes", int), ("flops", int)))
            for k, t in keys:
                if not isinstance(e["args"].get(k), t):
                    fail("%s: event %d args lack %s" % (path, i, k))
        if ph == "M":
            if e["name"] in ("thread_name", "thread_sort_index") and not isinstance(e.get("tid"), int):
                fail("%s: event %d: thread metadata without tid" % (path, i))
            if e["name"] == "thread_name":
                named.add((e["pid"], e["tid"]))
        if ph in "sf":
            flows.setdefault(e["id"], []).append(ph)
    for fid, phs in flows.items():
        if sorted(phs) != ["f", "s"]:
            fail("%s: flow %d has phases %s, not one s and one f" % (path, fid, phs))
    for e in events:
        if e["ph"] in "Xsf" and (e["pid"], e["tid"]) not in named:
            fail("%s: track pid %d tid %d has no thread_name" % (path, e["pid"], e["tid"]))
    return len(events)


def check_summary(path):
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, list) or not doc:
        fail(path + ": not a non-empty array of launches")
    for l in doc:
        for k, t in (("launch", int), ("kernel", str), ("soc", str), ("time_us", NUM), ("starts_at_us", NUM),
                     ("ends_at_us", NUM), ("bound", dict),
                     ("pipes", dict), ("bytes", dict), ("flops", dict), ("roofline", dict), ("cores", list)):
            if not isinstance(l.get(k), t):
                fail("%s: launch lacks %s of type %s" % (path, k, t))
        for c in l["cores"]:
            for k in ("core", "start_us", "end_us", "pipes", "blocked_us"):
                if k not in c:
                    fail("%s: core entry lacks %s" % (path, k))


if __name__ == "__main__":
    n = check_trace(sys.argv[1])
    if len(sys.argv) > 2:
        check_summary(sys.argv[2])
    print("check_trace: %s: %d events valid" % (sys.argv[1], n))
