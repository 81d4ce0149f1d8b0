"""Tests of ptolab's simulated torch_npu with the real torch (Debian's 1.13).
Run with PYTHONPATH=python/torch_npu_sim:build/python PTOLAB_TORCH_NPU=sim
(ctest torch_npu.python sets both)."""
import os

import pytest

torch = pytest.importorskip("torch")
os.environ.setdefault("PTOLAB_TORCH_NPU", "sim")
