#!/usr/bin/python3
"""Generate docs/coverage.md: PTO-ISA instruction x dtype x target coverage.

"Implemented" comes from the headers, "tested" from running the ISA test
binaries with PTOSIM_COVERAGE_OUT set (tests/coverage_listener.cpp), so the
page can only claim what the code and the tests actually show. With
--records DIR it first reads what ctest's runs of single test cases left in
DIR (PTOSIM_COVERAGE_DIR) and runs only the cases with no current record.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TARGETS = ["A2A3", "A5"]

DTYPES = ["half", "bfloat16_t", "float", "int8_t", "uint8_t", "int16_t", "uint16_t",
          "int32_t", "uint32_t", "int64_t", "uint64_t",
          # A5's low-precision types (include/ptosim/float8.hpp)
          "float8_e4m3_t", "float8_e5m2_t", "hifloat8_t", "float8_e8m0_t",
          "float4_e2m1x2_t", "float4_e1m2x2_t"]

# Ops such as TFREE carry no element type; they still deserve a tested mark.
NO_DTYPE = ""

# The public PTO-ISA instruction index (docs/isa/README.md of the pto-isa
# repository), by category. Communication ops live in a separate index there
# and are out of scope for a single-node simulator.
ISA_INDEX = [
    ("Synchronization", ["TSYNC", "SYNCALL"]),
    ("Manual / Resource Binding", ["TASSIGN", "TSETFMATRIX", "TSET_IMG2COL_RPT", "TSET_IMG2COL_PADDING",
                                   "SET_QUANT_SCALAR", "SET_QUANT_VECTOR"]),
    ("Elementwise (Tile-Tile)", ["TADD", "TABS", "TAND", "TOR", "TSUB", "TMUL", "TMIN", "TMAX", "TCMP", "TDIV",
                                 "TSHL", "TSHR", "TXOR", "TLOG", "TRECIP", "TPRELU", "TADDC", "TSUBC", "TCVT",
                                 "TSEL", "TRSQRT", "TSQRT", "TEXP", "TNOT", "TRELU", "TNEG", "TREM", "TFMOD",
                                 "TPOW", "TMULADDDST", "TSUBRELU", "TFUSEDMULADD", "TFUSEDMULADDRELU"]),
    ("Tile-Scalar / Tile-Immediate", ["TEXPANDS", "TCMPS", "TSELS", "TMINS", "TADDS", "TSUBS", "TDIVS", "TMULS",
                                      "TFMODS", "TREMS", "TMAXS", "TANDS", "TORS", "TSHLS", "TSHRS", "TXORS",
                                      "TLRELU", "TADDSC", "TSUBSC", "TPOWS"]),
    ("Axis Reduce / Expand", ["TROWSUM", "TROWPROD", "TCOLSUM", "TCOLPROD", "TCOLMAX", "TROWMAX", "TROWMIN",
                              "TROWARGMAX", "TROWARGMIN", "TCOLARGMAX", "TCOLARGMIN", "TROWEXPAND",
                              "TROWEXPANDDIV", "TROWEXPANDMUL", "TROWEXPANDSUB", "TROWEXPANDADD",
                              "TROWEXPANDMAX", "TROWEXPANDMIN", "TROWEXPANDEXPDIF", "TCOLMIN", "TCOLEXPAND",
                              "TCOLEXPANDDIV", "TCOLEXPANDMUL", "TCOLEXPANDADD", "TCOLEXPANDMAX",
                              "TCOLEXPANDMIN", "TCOLEXPANDSUB", "TCOLEXPANDEXPDIF"]),
    ("Memory (GM <-> Tile)", ["TLOAD", "TPREFETCH", "TPREFETCH_ASYNC", "TSTORE", "TSTORE_FP", "MGATHER",
                              "MSCATTER"]),
    ("Matrix Multiply", ["TGEMV_MX", "TMATMUL_MX", "TMATMUL", "TMATMUL_ACC", "TMATMUL_BIAS", "TGEMV", "TGEMV_ACC",
                         "TGEMV_BIAS"]),
    ("Data Movement / Layout", ["TEXTRACT", "TEXTRACT_FP", "TIMG2COL", "TINSERT", "TINSERT_FP", "TFILLPAD",
                                "TFILLPAD_INPLACE", "TFILLPAD_EXPAND", "TMOV", "TMOV_FP", "TRESHAPE", "TTRANS",
                                "TSUBVIEW", "TGET_SCALE_ADDR", "TCONCAT", "TINTERLEAVE", "TDEINTERLEAVE",
                                "TPAIRREDUCESUM"]),
    ("Complex", ["TPRINT", "TMRGSORT", "TSORT32", "TGATHER", "TCI", "TTRI", "TRANDOM", "TPARTADD", "TPARTMUL",
                 "TPARTMAX", "TPARTMIN", "TPARTARGMAX", "TPARTARGMIN", "TGATHERB", "TSCATTER", "TQUANT",
                 "TDEQUANT"]),
    ("Cross-core Communication", ["TALLOC", "TPUSH", "TPOP", "TFREE"]),
]


def implemented_instructions():
    """Instruction names the headers define for kernel code.

    Every user-facing instruction gets a call-site macro that injects the
    source location; the few that need no location (TASSIGN) are plain
    PTO_INST templates, so those are picked up too.
    """
    names = set()
    for path in glob.glob(os.path.join(ROOT, "include/pto/call_sites/*.hpp")):
        with open(path) as f:
            names.update(re.findall(r"^\s*#\s*define\s+([A-Z][A-Z0-9_]*)\(", f.read(), re.M))
    for sub in ("inst", "common"):
        for path in glob.glob(os.path.join(ROOT, "include/pto", sub, "*.hpp")):
            with open(path) as f:
                names.update(re.findall(r"PTO_INST(?:_CALLER)?\s+[\w:<>]+\s+([A-Z][A-Z0-9_]*)\s*\(", f.read()))
    return names


def test_binaries(build):
    tests = os.path.join(build, "tests")
    paths = set()
    for pattern in ("test_isa*_a2a3", "test_isa*_a5", "test_kernels_*"):
        for p in glob.glob(os.path.join(tests, pattern)):
            if os.path.isfile(p) and os.access(p, os.X_OK):
                paths.add(p)
    return sorted(paths)


def run_one(binary, out, tests=None):
    env = dict(os.environ, PTOSIM_COVERAGE_OUT=out)
    env.pop("PTOSIM_COVERAGE_DIR", None)
    cmd = [binary, "--gtest_brief=1"]
    if tests is not None:
        cmd.append("--gtest_filter=" + ":".join(sorted(tests)))
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    return proc.returncode


def listed_tests(binary):
    """The full names of the enabled tests of a gtest binary."""
    out = subprocess.run([binary, "--gtest_list_tests"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, timeout=120, check=True).stdout
    names, suite = set(), ""
    for line in out.splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            suite = line.split("#")[0].strip()
        else:
            names.add(suite + line.split("#")[0].strip())
    return {n for n in names if "DISABLED_" not in n}


def recorded(binaries, records):
    """{binary: (tests run, records)} from the current record files in `records`.

    A record older than its binary or than libptosim.so is from another build
    and is left out."""
    found = {b: (set(), []) for b in binaries}
    if not records or not os.path.isdir(records):
        return found
    by_name = {os.path.basename(b): b for b in binaries}
    lib = glob.glob(os.path.join(os.path.dirname(os.path.dirname(binaries[0])), "src", "sim", "libptosim.so*"))
    newest_lib = max((os.path.getmtime(p) for p in lib), default=0)
    for path in sorted(glob.glob(os.path.join(records, "*.json"))):
        with open(path) as f:
            rec = json.load(f)
        binary = by_name.get(rec["binary"])
        if binary is None or os.path.getmtime(path) < max(os.path.getmtime(binary), newest_lib):
            continue
        found[binary][0].update(rec["tests"])
        found[binary][1].extend(rec["records"])
    return found


def collect(binaries, jobs, records=None):
    """{target: {op: set(dtype)}} of everything the binaries dispatched."""
    seen = {t: {} for t in TARGETS}

    def add(recs):
        for rec in recs:
            seen.setdefault(rec["target"], {}).setdefault(rec["op"], set()).add(rec["dtype"])

    have = recorded(binaries, records)
    runs = []  # (binary, the tests to run, or None for all of them)
    for binary in binaries:
        tests, recs = have[binary]
        add(recs)
        if not tests:
            runs.append((binary, None))
            continue
        missing = listed_tests(binary) - tests
        if missing:
            runs.append((binary, missing))
    with tempfile.TemporaryDirectory(prefix="ptosim-coverage-") as tmp:
        outs = [os.path.join(tmp, "%d.json" % i) for i in range(len(runs))]
        # Independent processes, each writing its own file: the order of the
        # merge below, not of the runs, fixes the result.
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            codes = list(pool.map(lambda r, o: run_one(r[0], o, r[1]), runs, outs))
        for (binary, _), out, code in zip(runs, outs, codes):
            if code != 0:
                # A failing test still leaves valid coverage of what ran, but
                # the table would then disagree with a healthy build.
                sys.stderr.write("warning: %s exited with %d; coverage reflects a failing run\n"
                                 % (os.path.basename(binary), code))
            if not os.path.exists(out):
                sys.exit("error: %s wrote no coverage file; is tests/coverage_listener.cpp linked in?"
                         % binary)
            with open(out) as f:
                add(json.load(f))
    whole = sum(1 for r in runs if r[1] is None)
    print("coverage: of %d test binaries, %d from recorded test runs alone, %d run in part, %d run whole"
          % (len(binaries), len(binaries) - len(runs), len(runs) - whole, whole))
    return seen


def render(implemented, seen, binaries):
    index = [op for _, ops in ISA_INDEX for op in ops]
    impl_in_index = [op for op in index if op in implemented]
    lines = [
        "# PTO-ISA coverage",
        "",
        "Generated by `scripts/gen_coverage.py`; do not edit by hand. The ctest",
        "`coverage_table_is_current` fails when this page no longer matches the code.",
        "",
        "How each column is derived:",
        "",
        "- **Rows** are the instructions of the public PTO-ISA index (`docs/isa/README.md` of",
        "  the pto-isa repository; the separate communication index is not included).",
        "- **Impl.** is `yes` when the instruction is defined for kernel code: it has a",
        "  call-site macro in `include/pto/call_sites/*.hpp`, or a `PTO_INST` template in",
        "  `include/pto/inst/*.hpp` / `include/pto/common/*.hpp`. `—` means ptosim does not",
        "  provide it. This is per instruction, not per target or dtype: the headers do not",
        "  state dtype support in a machine-readable form.",
        "- **dtype cells** are `✓` when the instruction was executed (dispatched to the",
        "  simulator) with that destination element type on that target by the test binaries",
        "  " + ", ".join("`%s`" % os.path.basename(b) for b in binaries) + ".",
        "  Blank means no test executes it, not that it is unsupported. Ops run only inside",
        "  death-test child processes are not counted. The ctest reads what ctest's own runs",
        "  of each test case recorded (`--records`) and runs only the cases with no current record.",
        "- **no dtype** marks ops whose record carries no element type (e.g. TFREE).",
        "- TSYNC, TASSIGN, TRESHAPE and TSUBVIEW issue no instruction of their own (TSYNC",
        "  lowers to `set_flag`/`wait_flag`/`pipe_barrier`; the others only bind addresses),",
        "  so they never show as tested even though the tests use them.",
        "- TMATMUL_MX, TGEMV_MX, TGET_SCALE_ADDR, TINTERLEAVE, TDEINTERLEAVE and TRANDOM",
        "  exist on A5 only: compiled for A2A3 they are rejected with a `static_assert`",
        "  (checked by `tests/compile_fail`), so their A2A3 rows stay blank.",
        "",
    ]
    for target in TARGETS:
        ops = seen.get(target, {})
        pairs = sum(len(ops.get(op, set()) & set(DTYPES)) for op in index)
        tested_ops = sum(1 for op in index if ops.get(op))
        lines.append("**%s:** %d of %d instructions implemented; %d instructions executed by tests; "
                     "%d instruction-dtype pairs tested."
                     % (target, len(impl_in_index), len(index), tested_ops, pairs))
        lines.append("")
    header = ["Instruction", "Impl."] + DTYPES + ["no dtype"]
    for target in TARGETS:
        ops = seen.get(target, {})
        lines += ["## %s" % target, ""]
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "|".join(["---", ":-:"] + [":-:"] * (len(DTYPES) + 1)) + "|")
        for category, names in ISA_INDEX:
            lines.append("| **%s** |" % category + " |" * (len(header) - 1))
            for op in names:
                dts = ops.get(op, set())
                cells = ["✓" if d in dts else "" for d in DTYPES + [NO_DTYPE]]
                lines.append("| %s | %s | %s |" % (op, "yes" if op in implemented else "—", " | ".join(cells)))
        lines.append("")
    extra = sorted({op for t in TARGETS for op in seen.get(t, {})} - set(index))
    if extra:
        lines += ["## Executed outside the public index", "",
                  "Ops the tests dispatch that are not in the instruction index above (ptosim",
                  "extensions and the low-level intrinsics kernels call directly):", ""]
        for op in extra:
            per_target = []
            for t in TARGETS:
                dts = seen.get(t, {}).get(op)
                if dts:
                    shown = ", ".join(d if d else "no dtype" for d in sorted(dts))
                    per_target.append("%s (%s)" % (t, shown))
            lines.append("- `%s`: %s" % (op, "; ".join(per_target)))
        lines.append("")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="CMake build directory")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "coverage.md"), help="markdown file to write")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="test binaries run at once")
    ap.add_argument("--records", help="directory of the records ctest's test runs left (PTOSIM_COVERAGE_DIR)")
    args = ap.parse_args()
    binaries = test_binaries(os.path.abspath(args.build))
    if not binaries:
        sys.exit("error: no test binaries under %s/tests; build them first" % args.build)
    text = render(implemented_instructions(), collect(binaries, max(1, args.jobs), args.records), binaries)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
