#!/usr/bin/env python3
"""Checks that every repository path and every ptosim:: symbol the docs name
exists, so a renamed file or function cannot leave a doc pointing at nothing.

Scans README.md and docs/**/*.md (and reference/*.md) for `code spans` and
markdown link targets. A code span is taken as a path when it starts with a
top-level directory of the repository (include/, src/, tests/, ...), with
`*` and `<placeholder>` as wildcards and `{a,b}` as alternatives (each must
exist); `ptosim::name` spans must name something declared under include/ or
src/. Paths under build/ or the CANN root are outside the repository and not
checked, and neither are the paths the docs cite from Huawei's pto-isa,
which shares some top-level names (include/pto/npu, tests/npu, its ISA
pages docs/isa/<NAME>.md, ...): those are listed in PTO_ISA_AREAS, and with
PTO_ISA_ROOT set any path that exists in that checkout is taken as its.

  scripts/check_doc_refs.py [--root DIR]     # exit 1 listing what is missing"""
import argparse
import glob
import os
import re
import sys
from pathlib import Path

TOP = ("include/", "src/", "tests/", "docs/", "scripts/", "bench/", "reference/", "python/", "cmake/", ".ci/")
SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
# Paths only pto-isa has (its per-target implementations, cost model, system
# tests and ISA manual pages, whose names are upper case where ptolab's are not;
# its shared arch/ helpers, which compile errors in the conformance pages quote).
PTO_ISA_AREAS = re.compile(r"^(include/pto/(npu|cpu|costmodel)/|include/pto/common/(arch/|arch_cce_intrinsic\.hpp)|"
                           r"include/README\.md|tests/(npu|script|costmodel)/|tests/run_comm_test\.sh$|"
                           r"docs/(api|machine|coding)/|docs/isa/(tile/|conventions\.md|README\.md|[^/]*[A-Z]))")
SYMBOL = re.compile(r"\bptosim::([A-Za-z_][A-Za-z0-9_]*)(?:::([A-Za-z_][A-Za-z0-9_]*))?")


def docs(root):
    yield root / "README.md"
    yield from sorted((root / "docs").rglob("*.md"))
    yield from sorted((root / "reference").glob("*.md"))


def alternatives(p):
    m = re.search(r"\{([^{}]*)\}", p)
    if not m:
        yield p
        return
    for alt in m.group(1).split(","):
        yield from alternatives(p[:m.start()] + alt + p[m.end():])


def path_exists(root, p):
    p = re.sub(r"<[^<>/]*>", "*", p.rstrip("/.,:;)"))
    for q in alternatives(p):
        if any(ch in q for ch in "*?["):
            if not glob.glob(str(root / q)):
                return False
        elif not (root / q).exists():
            return False
    return True


def from_pto_isa(path):
    if PTO_ISA_AREAS.match(path):
        return True
    pto_isa = os.environ.get("PTO_ISA_ROOT")
    return bool(pto_isa) and path_exists(Path(pto_isa), path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=Path(__file__).resolve().parent.parent, type=Path)
    args = ap.parse_args()
    root = args.root.resolve()
    sources = "\n".join(p.read_text(errors="replace") for d in ("include", "src") for p in (root / d).rglob("*")
                        if p.is_file() and p.suffix in (".hpp", ".h", ".cpp"))
    missing = []
    for doc in docs(root):
        if not doc.exists():
            continue
        text = doc.read_text()
        for n, line in enumerate(text.splitlines(), 1):
            where = f"{doc.relative_to(root)}:{n}"
            for span in SPAN.findall(line):
                for word in span.split():
                    path = word.split(":")[0]
                    if path.startswith(TOP) and not from_pto_isa(path) and not path_exists(root, path):
                        missing.append(f"{where}: path `{word}` does not exist")
                for m in SYMBOL.finditer(span):
                    name = m.group(2) or m.group(1)
                    decl = (r"(\b(struct|class|enum|enum class|namespace|using)\s+([\w:]*::)?" + re.escape(name) + r"\b)|"
                            r"([\w>&*]\s+[&*]?" + re.escape(name) + r"\s*\()|(\b" + re.escape(name) + r"\s*=)")
                    if not re.search(decl, sources):
                        missing.append(f"{where}: symbol `{m.group(0)}` is declared nowhere under include/ or src/")
            for target in LINK.findall(line):
                if "://" in target or target.startswith("mailto:"):
                    continue
                if not (doc.parent / target).exists():
                    missing.append(f"{where}: link target {target} does not exist")
    for m in missing:
        print(m)
    if missing:
        print(f"{len(missing)} stale reference(s) in the docs: fix the doc or the name", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
