#!/usr/bin/env python3
"""ACL graphs from torch: captures add, matmul and matmul_add with
torch.npu.graph and replays them against the direct launches
(../../common/graph_torch.py). On ptosim: `ptolab run --sim -- python3 run_graph.py`."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "common"))
import graph_torch  # noqa: E402

if __name__ == "__main__":
    sys.exit(graph_torch.main(HERE))
