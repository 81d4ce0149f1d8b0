#!/usr/bin/env python3
"""The cost model against every published kernel measurement
(docs/cost-model.md, "Validation against published measurements").

Each row is one published measurement: pto-isa's kernel READMEs (the
file is named in the row) give a device time for a kernel at a shape. The
model's time for it comes from one of two places:

- reconstruction: ptosim_cost_table builds the kernel's instruction
  sequence from its published tiling and times it (milliseconds; the ctest
  cost_validation_is_current re-runs it);
- kernel: pto-isa's own kernel and host program, built through the
  CANN-shaped root and run on ptosim (bench/pto_isa_gemm_timing.sh,
  bench/pto_isa_kernels_timing.sh). These take minutes each and need a
  pto-isa checkout, so `run` records their results in
  docs/cost-validation.json and the table is built from that file.

Commands:

  cost_validation.py table --cost-table BIN         # print the generated block
  cost_validation.py check --cost-table BIN         # exit 1 when docs/cost-model.md differs
  cost_validation.py write --cost-table BIN         # rewrite the block in docs/cost-model.md
  cost_validation.py run   --pto-isa DIR [GROUP...] # re-run kernels, update the JSON
                                                    # GROUP: gemm fa fa910b2 conv2d topk mxfp8 tget ag_gemm
                                                    # or a row id; default: every runnable row

Nothing here runs on an NPU: every "model" figure is simulated.
"""

import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "cost-model.md")
JSON = os.path.join(ROOT, "docs", "cost-validation.json")
BEGIN, END = "<!-- validation begin -->", "<!-- validation end -->"

GEMM_A3 = "kernels/manual/a2a3/gemm_performance/README.md"
MX8 = "kernels/manual/a5/matmul_mxfp8_performance/README.md"
MX4 = "kernels/manual/a5/matmul_mxfp4_performance/README.md"
FA = "kernels/manual/common/flash_atten/README.md"
CONV = "kernels/manual/a2a3/conv2d_forward/README.md"
TOPK = "kernels/manual/a2a3/topk/README.md"
GEMM_AR_A3 = "kernels/manual/a2a3/gemm_ar/README.md"
GEMM_AR_A5 = "kernels/manual/a5/gemm_ar/README.md"
AG_GEMM = "kernels/manual/a2a3/allgather_gemm/README.md"
TGET = "kernels/manual/a2a3/tget_bandwidth/README.md"

# What each fitted row was used to choose (docs/soc-profiles.md, "Timing").
FIT_A3 = "MTE2 peak, L2 bandwidth"
FIT_FP8 = "fp8 Cube rate"
FIT_FP4 = "fp4 Cube rate"
FIT_HCCS = "HCCS start-up"
FIT_SDMA = "SDMA rate and start-up"

NOT_MODELLED_LINK = "not run: the example was not run on ptosim's ranks (below)"
# allgather_gemm on ptosim's ranks (docs/many-devices.md): the shapes run, the others too long on 2 cores.
AG_RUN = {(2, 2048, 2048, 1024), (2, 4096, 4096, 2048), (4, 4096, 4096, 4096)}
AG_NOT_RUN = "not run: simulation time (every rank computes the whole product 31 times, below)"


def row(rid, group, target, kernel, shape, soc, published, source, how, fitted="", devices=1, timed="launch",
        note="", family=None, run=None):
    """One published measurement. `published`: microseconds, or a string
    (a figure in other units). `how`: reconstruction, kernel, or a `not run:`
    reason. `timed`: which simulated time the published one corresponds to
    (launch = cores + launch overhead, as msprof task durations; cores = the
    kernel's own timer, without the launch)."""
    return dict(id=rid, group=group, target=target, kernel=kernel, shape=shape, soc=soc, published=published,
                source=source, how=how, fitted=fitted, devices=devices, timed=timed, note=note,
                family=family or group, run=run)


def rows():
    r = []
    for s, us in [(1536, 38.8), (3072, 206.7), (6144, 1506.0), (7680, 3168.0)]:
        r.append(row(f"gemm_a3_{s}", "gemm", "A2A3", "GEMM fp16 (gemm_performance)", f"m=k=n={s}", "Ascend910_93",
                     us, GEMM_A3, "reconstruction", FIT_A3, family="GEMM fp16, A3"))
        if s != 7680:
            r.append(row(f"gemm_a3_{s}_kernel", "gemm", "A2A3", "GEMM fp16 (gemm_performance)", f"m=k=n={s}",
                         "Ascend910_93", us, GEMM_A3, "kernel", FIT_A3, family="GEMM fp16, A3", run=("gemm", str(s))))
    r.append(row("gemm_a3_7680_kernel", "gemm", "A2A3", "GEMM fp16 (gemm_performance)", "m=k=n=7680",
                 "Ascend910_93", 3168.0, GEMM_A3, "not run: simulation time (more than 10 minutes)", FIT_A3,
                 family="GEMM fp16, A3"))
    for s, us in [(2048, 38.3), (4096, 187.9), (6144, 602.0), (8192, 1474.9)]:
        fit = FIT_FP8 if s == 8192 else ""
        r.append(row(f"mxfp8_{s}", "mxfp8", "A5", "GEMM mxfp8 (matmul_mxfp8_performance)", f"m=k=n={s}",
                     "Ascend950DT", us, MX8, "reconstruction", fit, family="GEMM mxfp8, A5"))
    r.append(row("mxfp8_2048_kernel", "mxfp8", "A5", "GEMM mxfp8 (matmul_mxfp8_performance)", "m=k=n=2048",
                 "Ascend950DT", 38.3, MX8, "not run: the kernel faults on ptosim (a scale over-read, below)",
                 family="GEMM mxfp8, A5"))
    r.append(row("mxfp8_4096_kernel", "mxfp8", "A5", "GEMM mxfp8 (matmul_mxfp8_performance)", "m=k=n=4096",
                 "Ascend950DT", 187.9, MX8, "kernel", family="GEMM mxfp8, A5", run=("mxfp8", "4096")))
    for m, k, n, us in [(2048, 2048, 2048, 42.5), (2048, 4096, 4096, 100.3), (4096, 1024, 8192, 122.6),
                        (1024, 12288, 4096, 137.7), (2048, 8192, 8192, 348.9), (2040, 8192, 8100, 377.3)]:
        r.append(row(f"mxfp4_{m}x{k}x{n}", "mxfp4", "A5", "GEMM mxfp4 (matmul_mxfp4_performance)",
                     f"m={m} k={k} n={n}", "Ascend950DT", us, MX4, "reconstruction", FIT_FP4,
                     family="GEMM mxfp4, A5"))
    fa = {1: [42.08, 51.44, 43.80, 74.54], 2: [33.201, 44.101, 43.521, 75.162],
          4: [41.721, 55.441, 46.621, 86.322], 8: [63.72, 85.882, 64.461, 107.342]}
    for cores, times in fa.items():
        for s1, us in zip([1024, 2048, 4096, 8192], times):
            r.append(row(f"fa_{cores}_{s1}", "fa", "A2A3", "flash attention (flash_atten)",
                         f"cores={cores} S0={128 * cores} S1={s1}", "Ascend910_93", us, FA, "kernel", timed="cores",
                         family="flash attention, A3 per-core tables", run=("fa", f"{cores},{s1}")))
    r.append(row("fa_16_2048", "fa", "A2A3", "flash attention (flash_atten)", "cores=16 S0=2048 S1=2048",
                 "Ascend910_93", 147.92, FA, "kernel", timed="cores",
                 note="the README's \"Sim vs NPU\" onboard row; its CA-simulator figure is 28.59 us", family="flash attention, Sim vs NPU row",
                 run=("fa", "16,2048")))
    for s, us in [(1024, 20.960), (2048, 32.461), (4096, 88.902), (8192, 292.626), (16384, 909.058),
                  (32768, 3262.645)]:
        b = s // 128
        how = "kernel" if s <= 8192 else "not run: simulation time"
        r.append(row(f"fa910b2_{s}", "fa910b2", "A2A3", "flash attention (flash_atten)",
                     f"S0=S1={s} ({b} blocks)", "Ascend910B2", us, FA, how, timed="cores",
                     family="flash attention, 910B2 table", run=("fa", f"{b},{s},Ascend910B2")))
    conv = [((8, 8, 48, 1536), "[4,8,8,48,16]", 32.2), ((16, 12, 64, 3072), "[4,16,12,64,16]", 147.3),
            ((24, 12, 96, 4608), "[4,24,12,96,16]", 470.9), ((32, 16, 96, 6144), "[4,32,16,96,16]", 1097.9),
            ((40, 15, 128, 7680), "[4,40,15,128,16]", 2131.2)]
    for (c1, h, w, n), x, us in conv:
        how = "kernel"
        if c1 == 8:
            how = "not run: the kernel faults on ptosim (an L1 tile one input row short, below)"
        elif c1 == 40:
            how = "not run: simulation time (about ten minutes)"
        r.append(row(f"conv2d_{c1}_{h}_{w}_{n}", "conv2d", "A2A3", "conv2d forward (conv2d_forward)", f"X={x}",
                     "Ascend910_93", us, CONV, how, family="conv2d, A3", run=("conv2d", f"{c1},{h},{w},{n}")))
    for rows_, us in [(2304, 161.375), (3456, 238.819), (4800, 324.106)]:
        r.append(row(f"topk_{rows_}", "topk", "A2A3", "top-k (topk)", f"rows={rows_}", "Ascend910_93", us, TOPK,
                     "kernel", family="top-k, A3", run=("topk", str(rows_))))
    # Published measurements of several devices.
    for tgt, src, comp, seq, pipe in [("A2A3", GEMM_AR_A3, 368.1, 808.9, 560.6),
                                      ("A5", GEMM_AR_A5, 323.2, 856.7, 580.2)]:
        soc = "Ascend910_93" if tgt == "A2A3" else "Ascend950DT"
        for what, us, dev in [("compute only", comp, 1), ("sequential", seq, 8), ("pipelined", pipe, 8)]:
            how = NOT_MODELLED_LINK if dev > 1 else (
                "not run: the host program needs MPI and HCCL; its tile schedule is not reconstructed")
            r.append(row(f"gemm_ar_{tgt.lower()}_{what.split()[0]}", "multi", tgt, f"GEMM + AllReduce (gemm_ar), {what}",
                         "M=5416 K=6144 N=1408", soc, us, src, how, devices=dev))
    for ranks, shapes in [(2, [(2048, 2048, 1024, 297), (4096, 4096, 2048, 1098), (4096, 4096, 4096, 1231),
                               (8192, 4096, 4096, 2519)]),
                          (4, [(4096, 4096, 4096, 986), (8192, 4096, 4096, 1648)]),
                          (8, [(8192, 4096, 4096, 1439), (16384, 4096, 4096, 2585)])]:
        for m, k, n, us in shapes:
            ran = (ranks, m, k, n) in AG_RUN
            r.append(row(f"ag_gemm_{ranks}_{m}_{k}_{n}", "ag_gemm", "A2A3", "AllGather + GEMM (allgather_gemm)",
                         f"M={m} K={k} N={n}", "Ascend910B1", float(us), AG_GEMM,
                         "kernel" if ran else AG_NOT_RUN, devices=ranks, timed="events",
                         note=("rank 0's \"compute done\" (aclrtEventElapsedTime around the GEMM)" +
                               ("; run before the link sharing was added (docs/soc-profiles.md, Timing, note 14)"
                                if (ranks, m) == (2, 2048) else "")) if ran else "",
                         family="AllGather + GEMM, A3", run=("ag_gemm", f"{ranks},{m},{k},{n}")))
    # The README gives SYS_CNT cycles, 50 MHz on A2/A3: microseconds = cycles / 50.
    for size, a, b in [("4 KB", 36.28, 136.51), ("16 KB", 149.98, 161.40), ("64 KB", 579.62, 277.25),
                       ("256 KB", 2409.72, 745.54), ("1 MB", 9317.93, 2624.24), ("4 MB", 37924.12, 10273.68)]:
        key = size.replace(" ", "").lower()
        for instr, cycles, fit in [("TGET", a, FIT_HCCS if size == "4 KB" else ""),
                                   ("TGET_ASYNC", b, FIT_SDMA if size in ("256 KB", "1 MB") else "")]:
            r.append(row(f"{instr.lower()}_{key}", "tget", "A2A3", f"{instr} (tget_bandwidth)", size,
                         "Ascend910_93", round(cycles / 50, 4), TGET, "kernel", fit, devices=2, timed="cores",
                         note=f"published {cycles:g} SYS_CNT cycles at 50 MHz",
                         family=f"{instr}, A3, 2 ranks", run=("tget", f"{instr}:{size}")))
    return r


# ---------------------------------------------------------------- results


def load_json():
    with open(JSON) as f:
        return json.load(f)


def cost_table(binary, *extra):
    out = subprocess.run([binary, *extra], check=True, capture_output=True, text=True).stdout
    res = {}
    for line in out.splitlines():
        k, v = line.split("\t")
        res[k] = float(v)
    return res


# Orders a README states without times: (claim, source, faster row, slower row, label of each).
ORDERINGS = [
    ("GEMM fp16 6144³ on A3: base blocks [baseM, baseN, baseK] = [128, 256, 64] \"improves arithmetic intensity "
     "versus [128, 128, 128]\"", GEMM_A3, ("tune_gemm_a3_6144_m128n256k64", "[128, 256, 64]"),
     ("tune_gemm_a3_6144_m128n128k128", "[128, 128, 128]")),
]


def results(binary):
    """Model time and the time before the fixed costs, by row id, with the
    bound and kernel result where known."""
    live, before = cost_table(binary), cost_table(binary, "--no-fixed-costs")
    stored = load_json()["rows"]
    out = {k: dict(model_us=v) for k, v in live.items() if k.startswith("tune_")}
    for r in rows():
        if r["how"] == "reconstruction":
            out[r["id"]] = dict(model_us=live[r["id"]], before_us=before[r["id"]], bound="", result="")
        elif r["how"] == "kernel" and r["id"] in stored:
            out[r["id"]] = stored[r["id"]]
    return out


# ---------------------------------------------------------------- statistics


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    rk = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for t in range(i, j + 1):
            rk[order[t]] = (i + j) / 2 + 1
        i = j + 1
    return rk


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5 if va > 0 and vb > 0 else float("nan")


def fmt(v):
    if v is None:
        return "—"
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}" if v >= 10 else f"{v:.2f}"


def primary(rs):
    """One model figure per published measurement: the real kernel where it
    ran, else the reconstruction."""
    by_key = {}
    for r in rs:
        key = (r["source"], r["shape"], r["soc"], r["kernel"])
        by_key.setdefault(key, []).append(r)
    keep = set()
    for group in by_key.values():
        ran = [r for r in group if r.get("model_us") is not None]
        pick = [r for r in ran if r["how"] == "kernel"] or ran
        if pick:
            keep.add(pick[0]["id"])
    return keep


def table(binary):
    res = results(binary)
    rs = rows()
    for r in rs:
        got = res.get(r["id"])
        r["model_us"] = got["model_us"] if got else None
        r["before_us"] = got.get("before_us") if got else None
        r["bound"] = got.get("bound", "") if got else ""
        r["result"] = got.get("result", "") if got else ""
        # A kernel row not re-run since the fixed costs has only its earlier figure.
        r["stale"] = bool(got) and r["how"] == "kernel" and not got.get("fixed_costs", False)
        if r["stale"]:
            r["model_us"] = None
    keep = primary(rs)
    out = []
    w = out.append
    w("| # | Target | Kernel | Shape | Devices | SoC profile | Published (us) | Model (us) | Model / published "
      "| Before the fixed costs | How the model ran | Used to fit | Published in (pto-isa) |")
    w("|--:|---|---|---|--:|---|--:|--:|--:|--:|---|---|---|")
    for i, r in enumerate(rs, 1):
        pub = r["published"]
        pub_s = fmt(pub) if isinstance(pub, float) else pub
        model = r["model_us"]
        ratio = f"{model / pub:.2f}" if model is not None and isinstance(pub, float) else "—"
        if model is not None and r["id"] not in keep:
            ratio += " (dup.)"
        before = r["before_us"]
        before_s = f"{fmt(before)}, {before / pub:.2f}" if before is not None and isinstance(pub, float) else "—"
        how = r["how"]
        if how == "kernel":
            how = "pto-isa's kernel" + (f", {r['bound']}" if r["bound"] else "") + (
                f", {r['result']}" if r["result"] else "")
            if r["timed"] == "cores":
                how += "; cores' time (the kernel's own timer)"
            if r.get("stale"):
                how += "; not re-run since the fixed costs"
        elif how == "reconstruction":
            how = "reconstruction (ptosim_cost_table)"
        if r["note"]:
            how += f"; {r['note']}"
        w(f"| {i} | {r['target']} | {r['kernel']} | {r['shape']} | {r['devices']} | `{r['soc']}` | {pub_s} | "
          f"{fmt(model)} | {ratio} | {before_s} | {how} | {r['fitted'] or 'no'} | `{r['source']}` |")
    w("")
    # Summary over one model figure per published measurement.
    counted = [r for r in rs if r["id"] in keep]
    w("| Rows (one model figure per published measurement) | Count | Within ±15% | Within ±25% "
      "| Median \\|model / published − 1\\| | Before the fixed costs: ±15% | ±25% | median |")
    w("|---|--:|--:|--:|--:|--:|--:|--:|")

    def line(name, sel):
        n = len(sel)
        if not n:
            return
        err = [abs(r["model_us"] / r["published"] - 1) for r in sel]
        berr = [abs(r["before_us"] / r["published"] - 1) for r in sel if r["before_us"] is not None]
        of = "" if len(berr) == n else f" of {len(berr)}"
        bs = (f"{sum(e <= 0.15 for e in berr)}{of} | {sum(e <= 0.25 for e in berr)}{of} | "
              f"{statistics.median(berr):.2f}" if berr else "— | — | —")
        w(f"| {name} | {n} | {sum(e <= 0.15 for e in err)} | {sum(e <= 0.25 for e in err)} | "
          f"{statistics.median(err):.2f} | {bs} |")

    line("Held out (never used to fit a figure)", [r for r in counted if not r["fitted"]])
    line("Held out, only the rows with a figure from before", [r for r in counted if not r["fitted"] and
                                                                r["before_us"] is not None])
    line("Fitted (used to choose a figure)", [r for r in counted if r["fitted"]])
    line("All", counted)
    not_run = [r for r in rs if r["model_us"] is None]
    multi = [r for r in not_run if r["devices"] > 1]
    w("")
    stale = [r for r in rs if r["stale"]]
    w(f"{len(rs)} rows: {len(counted)} published measurements with a model figure, "
      f"{len([r for r in rs if r['model_us'] is not None]) - len(counted)} duplicates (a measurement the "
      f"reconstruction also times, marked dup.), {len(not_run)} without a current model figure "
      f"({len(multi)} on several devices, {len(stale)} not re-run since the fixed costs).")
    w("")
    # Ranking: does the model order each published family as the measurements do?
    w("| Family (published configurations) | Configurations | Spearman ρ (model vs published) "
      "| Before the fixed costs | Used to fit |")
    w("|---|--:|--:|--:|---|")
    fams = {}
    for r in counted:
        fams.setdefault(r["family"], []).append(r)
    for name, sel in fams.items():
        if len(sel) < 3:
            continue
        rho = spearman([r["model_us"] for r in sel], [r["published"] for r in sel])
        b = [r["before_us"] for r in sel]
        brho = f"{spearman(b, [r['published'] for r in sel]):.2f}" if None not in b else "—"
        fitted = sorted({r["fitted"] for r in sel if r["fitted"]})
        w(f"| {name} | {len(sel)} | {rho:.2f} | {brho} | {', '.join(fitted) or 'no'} |")
    w("")
    w("| Published order (no times published) | Configuration said to be faster: model (us) | Slower: model (us) "
      "| The model agrees | Published in (pto-isa) |")
    w("|---|--:|--:|---|---|")
    for claim, src, (fast, fast_label), (slow, slow_label) in ORDERINGS:
        f, s_ = res[fast]["model_us"], res[slow]["model_us"]
        w(f"| {claim} | {fast_label}: {fmt(f)} | {slow_label}: {fmt(s_)} | "
          f"{'yes' if f < s_ else 'no'} ({s_ / f:.2f}×) | `{src}` |")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- doc


def doc_block():
    text = open(DOC).read()
    i, j = text.find(BEGIN), text.find(END)
    if i < 0 or j < 0:
        sys.exit(f"{DOC}: no {BEGIN} ... {END} markers")
    return text, i + len(BEGIN) + 1, j


def cmd_check(a):
    text, i, j = doc_block()
    want = table(a.cost_table)
    if text[i:j] != want:
        import difflib
        print("docs/cost-model.md is stale: run scripts/cost_validation.py write --cost-table <ptosim_cost_table>")
        sys.stdout.writelines(list(difflib.unified_diff(text[i:j].splitlines(True), want.splitlines(True),
                                                        "docs/cost-model.md", "generated"))[:60])
        return 1
    return 0


def cmd_write(a):
    text, i, j = doc_block()
    with open(DOC, "w") as f:
        f.write(text[:i] + table(a.cost_table) + text[j:])
    return 0


# ---------------------------------------------------------------- run

LINE = {
    "gemm": re.compile(r"gemm_performance m=k=n=(\d+): ([0-9.?]+) us simulated \(bound: (\S+) (\d+)%\).*kernel (.*)$"),
    "kern": re.compile(r"^(.*): launch ([0-9.?]+) us, cores ([0-9.?]+) us simulated \(bound ([^)]*)\).*kernel: (.*)$"),
}


def run_group(isa, group, cases):
    if group == "gemm":
        cmd = [os.path.join(ROOT, "bench", "pto_isa_gemm_timing.sh"), isa, *cases]
    else:
        cmd = [os.path.join(ROOT, "bench", "pto_isa_kernels_timing.sh"), isa, group, *cases]
    print("+", " ".join(cmd), flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    print(out, end="", flush=True)
    got = []
    for ln in out.splitlines():
        m = LINE["gemm"].search(ln) if group == "gemm" else LINE["kern"].search(ln)
        if not m:
            continue
        if group == "gemm":
            got.append(dict(model_us=float(m.group(2)), cores_us=None, bound=f"{m.group(3)} {m.group(4)}%",
                            result=m.group(5).strip()))
        else:
            launch = float(m.group(2)) if m.group(2) != "?" else None
            cores = float(m.group(3)) if m.group(3) != "?" else None
            got.append(dict(launch_us=launch, cores_us=cores, bound=m.group(4).replace(":", " "),
                            result=m.group(5).strip()))
    return got


def git_head(path, *watch):
    """The commit of a tree, "+changes" when `watch` (paths) differ from it."""
    try:
        head = subprocess.run(["git", "-C", path, "rev-parse", "--short=8", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"
    if watch and subprocess.run(["git", "-C", path, "diff", "--quiet", "HEAD", "--", *watch]).returncode:
        head += "+changes"
    return head


def run_tget(isa, items, stored):
    """One run of tget_bandwidth (scripts/tget_bandwidth.sh, 2 ranks) gives
    every TGET and TGET_ASYNC row: rank 0's "[BW]" lines, device_avg_cycles
    in simulated SYS_CNT cycles (50 MHz)."""
    cmd = [os.path.join(ROOT, "scripts", "tget_bandwidth.sh"), isa]
    print("+", " ".join(cmd), flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    print(out, end="", flush=True)
    log = open(os.path.join(ROOT, "build", "tget_bandwidth", "run.log")).read()
    # MPICH's -prepend-rank may cut a rank's line where its writes were split.
    text = log.replace("[0] ", "")
    got = {}
    for m in re.finditer(r"\[BW\] instr=(\S+) bytes=(\d+) iters=\d+ .*?device_avg_cycles=([0-9.]+)", text):
        got[(m.group(1), int(m.group(2)))] = float(m.group(3))
    ok = "test success" in text
    sizes = {"4 KB": 4096, "16 KB": 16384, "64 KB": 65536, "256 KB": 262144, "1 MB": 1 << 20, "4 MB": 4 << 20}
    for r, case in items:
        instr, size = case.split(":")
        cycles = got.get((instr, sizes[size]))
        if cycles is None or not ok:
            print(f"{r['id']}: no result; kept the stored figure", file=sys.stderr)
            continue
        stored[r["id"]] = dict(
            model_us=round(cycles / 50, 4), sys_cnt_cycles=cycles, bound="", result="test success",
            fixed_costs=True, ptolab=git_head(ROOT, "src", "include", "bench", "scripts"), pto_isa=git_head(isa),
            date=datetime.date.today().isoformat(), command="scripts/tget_bandwidth.sh <pto-isa>")


def run_ag_gemm(isa, items, stored):
    """allgather_gemm per shape (scripts/allgather_gemm.sh): rank 0's
    "compute done", the example's own event-timed figure, simulated."""
    for r, case in items:
        ranks, m, k, n = case.split(",")
        work = os.path.join(ROOT, "build", "allgather_gemm")
        cmd = [os.path.join(ROOT, "scripts", "allgather_gemm.sh"), isa, "--ranks", ranks, "--gm", m, "--gk", k,
               "--gn", n, "--work", work]
        print("+", " ".join(cmd), flush=True)
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        print(out, end="", flush=True)
        done = re.search(r"^\[0\]\s+compute done: ([0-9.]+) us", out, re.M)
        passed = re.search(r"Verification PASSED", out)
        gemm = re.search(r"rank 0: AllGatherGemmComputeStreamingKernel: \d+ launches, simulated ([0-9.]+) us \(min\)", out)
        comm = re.search(r"rank 0: RingCommStreamingKernel: \d+ launches, simulated ([0-9.]+) us \(min\)", out)
        if not done or not passed:
            print(f"{r['id']}: no result; kept the stored figure", file=sys.stderr)
            continue
        stored[r["id"]] = dict(
            model_us=float(done.group(1)), gemm_alone_us=float(gemm.group(1)) if gemm else None,
            comm_us=float(comm.group(1)) if comm else None, bound="", result="Verification PASSED",
            fixed_costs=True, ptolab=git_head(ROOT, "src", "include", "bench", "scripts"), pto_isa=git_head(isa),
            date=datetime.date.today().isoformat(),
            command=f"scripts/allgather_gemm.sh <pto-isa> --ranks {ranks} --gm {m} --gk {k} --gn {n}")
        data = load_json()
        data["rows"] = stored
        with open(JSON, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.write("\n")


def cmd_run(a):
    isa = os.path.abspath(a.pto_isa)
    want = a.only or ["gemm", "fa", "fa910b2", "conv2d", "topk", "mxfp8", "tget", "ag_gemm"]
    todo = [r for r in rows() if r["how"] == "kernel" and (r["group"] in want or r["id"] in want)]
    data = load_json()
    stored = data["rows"]
    by_tool = {}
    for r in todo:
        tool, case = r["run"]
        by_tool.setdefault(tool, []).append((r, case))
    if "ag_gemm" in by_tool:
        run_ag_gemm(isa, by_tool.pop("ag_gemm"), stored)
        data = load_json()
        stored = data["rows"]
    if "tget" in by_tool:
        run_tget(isa, by_tool.pop("tget"), stored)
        with open(JSON, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.write("\n")
    for tool, items in by_tool.items():
        # fa builds every case in one build; the others build per case.
        batches = [items] if tool == "fa" else [[x] for x in items]
        for batch in batches:
            got = run_group(isa, tool, [c for _, c in batch])
            for (r, case), g in zip(batch, got):
                prev = stored.get(r["id"], {})
                extra = {}
                if tool == "gemm":
                    model = g["model_us"]
                elif r["timed"] == "cores" and g["cores_us"] is not None:
                    # The kernel's own timer starts at its first instruction, after the block start-up.
                    bs = float(subprocess.run([a.cost_table, "--block-start-us", r["soc"]], check=True,
                                              capture_output=True, text=True).stdout)
                    model = round(g["cores_us"] - bs, 3)
                    extra = dict(cores_us=g["cores_us"], block_start_us=round(bs, 3))
                else:
                    model = g["launch_us"]
                ok = re.search(r"success|passed", g["result"] or "") and model is not None
                if not ok:
                    print(f"{r['id']}: no result ({g['result']}); kept the stored figure", file=sys.stderr)
                    continue
                stored[r["id"]] = dict(
                    model_us=model, before_us=prev.get("before_us"), bound=g["bound"], result=g["result"], **extra,
                    fixed_costs=True, ptolab=git_head(ROOT, "src", "include", "bench"), pto_isa=git_head(isa),
                    date=datetime.date.today().isoformat(),
                    command=" ".join(["bench/" + ("pto_isa_gemm_timing.sh" if tool == "gemm" else
                                                  "pto_isa_kernels_timing.sh"), "<pto-isa>",
                                      *([] if tool == "gemm" else [tool]), case]))
                with open(JSON, "w") as f:
                    json.dump(data, f, indent=1, sort_keys=True)
                    f.write("\n")
    return 0


def cmd_selftest(_):
    """Exact values of the statistics the table reports."""
    checks = [
        (ranks([10, 30, 20, 20]), [1, 4, 2.5, 2.5]),
        (round(spearman([1, 2, 3, 4], [1, 3, 2, 4]), 12), 0.8),
        (round(spearman([1, 2, 3, 4], [4, 3, 2, 1]), 12), -1.0),
        (round(spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]), 12), 0.8),
        (fmt(1741.2), "1741"), (fmt(47.26), "47.3"), (fmt(4.567), "4.57"), (fmt(None), "—"),
    ]
    bad = [(got, want) for got, want in checks if got != want]
    for got, want in bad:
        print(f"selftest: got {got!r}, want {want!r}")
    # One model figure per measurement: the kernel's where it ran, else the reconstruction.
    rs = [dict(id="a", source="s", shape="x", soc="p", kernel="k", how="reconstruction", model_us=1.0),
          dict(id="b", source="s", shape="x", soc="p", kernel="k", how="kernel", model_us=2.0),
          dict(id="c", source="s", shape="y", soc="p", kernel="k", how="kernel", model_us=None),
          dict(id="d", source="s", shape="y", soc="p", kernel="k", how="reconstruction", model_us=3.0)]
    if primary(rs) != {"b", "d"}:
        print(f"selftest: primary picked {sorted(primary(rs))}, want ['b', 'd']")
        bad.append(1)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for c in ("table", "check", "write"):
        p = sub.add_parser(c)
        p.add_argument("--cost-table", required=True, help="the build's ptosim_cost_table")
    sub.add_parser("selftest")
    p = sub.add_parser("run")
    p.add_argument("--pto-isa", required=True)
    p.add_argument("--cost-table", default=os.path.join(ROOT, "build", "src", "sim", "ptosim_cost_table"))
    p.add_argument("only", nargs="*")
    a = ap.parse_args()
    if a.cmd == "table":
        sys.stdout.write(table(a.cost_table))
        return 0
    return {"check": cmd_check, "write": cmd_write, "run": cmd_run, "selftest": cmd_selftest}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
