#!/usr/bin/env python3
"""Gives every header path of a pto-isa checkout a ptolab header of its own.

Kernels and host programs written for the real toolchain include pto-isa's
headers by path (pto/common/constants.hpp, pto/npu/a2a3/TLoad.hpp, ...).
ptolab implements the API behind one umbrella, so a path ptolab has no
hand-written header for becomes a forwarder to it. Hand-written headers (any
file without the FORWARDER marker) are never touched. The list of paths is
kept in tests/pto_isa_header_paths.txt, from which the header-surface tests
compile every path for A2A3, A5 and host code.

    scripts/gen_pto_isa_paths.py <pto-isa checkout>          # write missing forwarders
    scripts/gen_pto_isa_paths.py <pto-isa checkout> --check  # exit 1 if a path is missing
"""
import argparse
import pathlib
import sys

FORWARDER = "// ptolab forwarder for pto-isa's header path"
ROOT = pathlib.Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "include"
MANIFEST = ROOT / "tests" / "pto_isa_header_paths.txt"
MANIFEST_HEAD = "# pto-isa's include/pto header paths; written by scripts/gen_pto_isa_paths.py.\n"


def pto_isa_paths(checkout: pathlib.Path):
    base = checkout / "include"
    if not (base / "pto" / "pto-inst.hpp").is_file():
        sys.exit(f"error: {checkout} is not a pto-isa checkout (no include/pto/pto-inst.hpp); pass its root directory")
    for p in sorted((base / "pto").rglob("*")):
        if p.is_file() and p.suffix in (".hpp", ".h"):
            yield p.relative_to(base).as_posix()


def forwarder_text(rel: str) -> str:
    # Host programs include pto/common/type.hpp-style headers without a target;
    # the umbrella then declares only types and constants, as pto-isa's does.
    return (f"{FORWARDER} {rel}.\n"
            "// Its names are part of ptolab's PTO API; see docs/drop-in.md, \"Header paths\".\n"
            "#pragma once\n"
            "#include <pto/pto-inst.hpp>\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=pathlib.Path)
    ap.add_argument("--check", action="store_true", help="only report missing paths")
    args = ap.parse_args()
    paths = list(pto_isa_paths(args.checkout))
    manifest = MANIFEST_HEAD + "".join(f"{rel}\n" for rel in paths)
    missing = [rel for rel in paths if not (INCLUDE / rel).exists()]
    if args.check:
        for rel in missing:
            print(f"missing: include/{rel} (run scripts/gen_pto_isa_paths.py {args.checkout})")
        stale = not MANIFEST.is_file() or MANIFEST.read_text() != manifest
        if stale:
            print(f"stale: {MANIFEST.relative_to(ROOT)} (run scripts/gen_pto_isa_paths.py {args.checkout})")
        return 1 if missing or stale else 0
    MANIFEST.write_text(manifest)
    for rel in missing:
        out = INCLUDE / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(forwarder_text(rel))
    print(f"{len(missing)} forwarder(s) written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
