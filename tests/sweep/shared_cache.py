#!/usr/bin/python3
"""Two sweeps at once on one shared ptocc cache directory compile each kernel
once: every cache key has exactly one "compile" in $PTOCC_CACHE_LOG, the
other builds are hits (after waiting on the first one's lease), no entry is
ever served damaged, and nothing is left behind (leases, temporary files).

Usage: shared_cache.py PTOCC KERNEL.cpp  (ctest sweep.shared_cache)."""
import collections
import os
import subprocess
import sys
import tempfile

CLI = os.environ.get("PTOLAB_CLI", "ptolab")


def main() -> int:
    ptocc, kernel = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="ptolab-shared-cache-") as tmp:
        cache, log = os.path.join(tmp, "cache"), os.path.join(tmp, "cache.log")
        # Same working directory, flags and output on both sides, as two machines building one checkout
        # path: all are in the key (the launch rewrite names translation units after the output).
        with open(os.path.join(tmp, "cases.txt"), "w") as f:
            for arch, macro in (("dav-c220-vec", "MEMORY_BASE"), ("dav-c310-vec", "REGISTER_BASE")):
                f.write(f"{arch} {ptocc} -fPIC -shared -xcce --cce-aicore-arch={arch} -D{macro} -O2 -v {kernel} "
                        f"-o out/{arch}.so\n")
        os.makedirs(os.path.join(tmp, "out"))
        env = dict(os.environ, PTOCC_CACHE_DIR=cache, PTOCC_CACHE_LOG=log)
        procs = []
        for run in ("a", "b"):
            cmd = [CLI, "sweep", "--list", os.path.join(tmp, "cases.txt"), "--out", os.path.join(tmp, run),
                   "--jobs", "2", "--timeout", "600", "--quiet"]
            print("+ PTOCC_CACHE_DIR=cache PTOCC_CACHE_LOG=cache.log " + " ".join(cmd), flush=True)
            procs.append(subprocess.Popen(cmd, env=env))
        codes = [p.wait() for p in procs]
        for run in ("a", "b"):
            for name in sorted(os.listdir(os.path.join(tmp, run, "logs"))):
                text = open(os.path.join(tmp, run, "logs", name)).read()
                assert "is damaged" not in text, f"{run}/{name} was served a damaged entry:\n{text}"
        if codes != [0, 0]:
            for run in ("a", "b"):
                print(open(os.path.join(tmp, run, "sweep.md")).read())
            raise AssertionError(f"the sweeps exited {codes}")
        events = collections.defaultdict(collections.Counter)
        pch = set()
        with open(log) as f:
            for line in f:
                event, key, what = line.split(" ", 2)
                if event.startswith("fact-"):
                    continue  # inferred kernel types: no leases, each sweep may keep one
                events[key][event] += 1
                if what.strip().endswith(".gch"):
                    pch.add(key)
        compiles = {k: c["compile"] for k, c in events.items()}
        print(f"{len(events)} cache keys; compiles per key: {sorted(compiles.values())}; "
              f"hits {sum(c['hit'] for c in events.values())}; waits {sum(c['wait'] for c in events.values())}")
        assert all(n == 1 for n in compiles.values()), {k: dict(c) for k, c in events.items()}
        # The other sweep got every object and library from the entry; it never needed the precompiled headers.
        assert all(events[k]["hit"] == 1 for k in set(events) - pch), {k: dict(c) for k, c in events.items()}
        assert len(pch) == 2 and len(events) - len(pch) == 4, {k: dict(c) for k, c in events.items()}
        leftovers = [n for _, _, fs in os.walk(cache) for n in fs if n.endswith(".lease") or ".tmp." in n]
        assert not leftovers, f"leases or temporary files left in the cache: {leftovers}"
    return 0


if __name__ == "__main__":
    sys.exit(main())
