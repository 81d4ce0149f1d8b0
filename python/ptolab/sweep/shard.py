"""Deterministic, duration-balanced shards: every machine that has the same
case list and the same previous report picks the same share, so CI matrices,
GitLab parallel jobs and Slurm arrays split a sweep without a coordinator."""
from __future__ import annotations

import os
import statistics

from .cases import SweepError


def parse_shard(spec: str | None, env=os.environ) -> tuple[int, int] | None:
    """(index from 0, count) of `I/N` (I from 1), `slurm`, `gitlab`, or None for the whole sweep."""
    if not spec:
        return None
    if spec == "slurm":
        # Array indices may start anywhere (--array=0-3, 1-4, 5-8): count from the first.
        try:
            task = int(env["SLURM_ARRAY_TASK_ID"])
            count = int(env["SLURM_ARRAY_TASK_COUNT"])
            first = int(env.get("SLURM_ARRAY_TASK_MIN", "0"))
        except (KeyError, ValueError):
            raise SweepError("--shard slurm: SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT must be set to whole "
                             "numbers (run inside an sbatch --array job), or give --shard I/N") from None
        index = task - first
    elif spec == "gitlab":
        try:
            index, count = int(env["CI_NODE_INDEX"]) - 1, int(env["CI_NODE_TOTAL"])
        except (KeyError, ValueError):
            raise SweepError("--shard gitlab: CI_NODE_INDEX and CI_NODE_TOTAL must be set (a job with "
                             "`parallel: N`), or give --shard I/N") from None
    else:
        try:
            i, n = spec.split("/")
            index, count = int(i) - 1, int(n)
        except ValueError:
            raise SweepError(f"--shard {spec}: write I/N with 1 <= I <= N (e.g. 2/4), slurm or gitlab") from None
    if not (count >= 1 and 0 <= index < count):
        raise SweepError(f"--shard {spec}: shard {index + 1} of {count} does not exist; I must be 1..N")
    return index, count


def assign(ids: list[str], durations: dict[str, float], count: int) -> dict[str, int]:
    """Case id -> shard index: longest first onto the least loaded shard (ties: lower shard), cases of
    unknown duration counted at the median of the known ones. Depends only on the ids and durations."""
    known = [durations[i] for i in ids if i in durations]
    default = statistics.median(known) if known else 1.0
    load = [0.0] * count
    out = {}
    for cid in sorted(ids, key=lambda i: (-durations.get(i, default), i)):
        k = min(range(count), key=lambda s: (load[s], s))
        out[cid] = k
        load[k] += durations.get(cid, default)
    return out


def select_shard(cases: list, shard: tuple[int, int] | None, durations: dict[str, float]) -> list:
    if shard is None:
        return list(cases)
    index, count = shard
    owner = assign([c.id for c in cases], durations, count)
    return [c for c in cases if owner[c.id] == index]
