#!/usr/bin/env python3
"""Keeps docs/ptocc.md's flag tables equal to ptocc's flag table.

Each generated block in the document sits between
    <!-- generated: ptocc --print-flag-table-markdown=SECTION -->
and
    <!-- end generated -->
and holds exactly what that command prints. Without --write this checks
every block and exits 1 naming the stale ones; with --write it replaces them.

usage: ptocc_flag_docs.py PTOCC DOC [--write]
"""
import re
import subprocess
import sys

BLOCK = re.compile(r"(<!-- generated: ptocc --print-flag-table-markdown=(\w+) -->\n)(.*?)(<!-- end generated -->)",
                   re.S)


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--write"):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    ptocc, doc, write = argv[1], argv[2], len(argv) == 4
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    stale, sections = [], []

    def regenerate(m):
        section = m.group(2)
        sections.append(section)
        want = subprocess.run([ptocc, "--print-flag-table-markdown=" + section], check=True, capture_output=True,
                              text=True).stdout
        if m.group(3) != want:
            stale.append(section)
        return m.group(1) + want + m.group(4)

    new = BLOCK.sub(regenerate, text)
    if sorted(sections) != ["ignored", "own", "sim"]:
        print(f"{doc}: expected one generated block each for own, sim and ignored, found {sections or 'none'}",
              file=sys.stderr)
        return 1
    if write:
        if new != text:
            with open(doc, "w", encoding="utf-8") as f:
                f.write(new)
        return 0
    if stale:
        print(f"{doc}: the flag table(s) {', '.join(stale)} differ from ptocc's flag table (src/cc/options.cpp, "
              f"flag_table()); regenerate them with:\n  python3 scripts/ptocc_flag_docs.py {ptocc} {doc} --write",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
