#!/usr/bin/python3
"""What the stream-order waits of the simulated torch_npu cost: host
operators on small npu tensors with the wait (every stream synchronised
before the operator, docs/torch_npu.md "Stream order") and without it,
on an idle device, with 1 and with 8 extra streams alive, and the wait
alone (best of 5 batches; the operators themselves are host references).

usage (from the source tree, after a build):
  PYTHONPATH=python/torch_npu_sim:build/python PTOLAB_TORCH_NPU=sim \\
      /usr/bin/python3 bench/torch_npu_stream_waits.py [--repeats N]
"""
import argparse
import time

import torch

import torch_npu  # noqa: F401
from torch_npu import _tensor

OPS = {
    "y.float()": lambda y: y.float(),
    "y + 1": lambda y: y + 1,
    "y.sum().item()": lambda y: y.sum().item(),
    "y.cpu()": lambda y: y.cpu(),
    "y[3:9].clone()": lambda y: y[3:9].clone(),
    "y.fill_(2)": lambda y: y.fill_(2),
}


def per_op_us(op, y, repeats):
    op(y)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(repeats):
            op(y)
        best = min(best, (time.perf_counter() - t) / repeats)
    return best * 1e6


def wait_alone_us(repeats):
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(repeats):
            _tensor.wait_for_streams("bench")
        best = min(best, (time.perf_counter() - t) / repeats)
    return best * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=2000)
    args = ap.parse_args()
    y = torch.ones(1024, device="npu", dtype=torch.float16)
    hook = _tensor._wait_hook[0]
    print(f"{'operator':<18} {'streams':>7} {'no wait us':>11} {'wait us':>9} {'cost us':>8}")
    extra = []
    for streams in (0, 1, 8):
        while len(extra) < streams:
            extra.append(torch.npu.Stream())
        for name, op in OPS.items():
            _tensor._wait_hook[0] = None
            without = per_op_us(op, y, args.repeats)
            _tensor._wait_hook[0] = hook
            with_wait = per_op_us(op, y, args.repeats)
            print(f"{name:<18} {1 + streams:>7} {without:>11.2f} {with_wait:>9.2f} {with_wait - without:>8.2f}")
        print(f"{'the wait alone':<18} {1 + streams:>7} {'':>11} {wait_alone_us(args.repeats * 10):>9.2f}")


if __name__ == "__main__":
    main()
