"""Seeds the global random generators of every interpreter pto-isa's runner
starts, when PTOLAB_CONFORMANCE_SEED is set (scripts/conformance.py sets it).

Several gen_data.py scripts draw their inputs from NumPy's global generator
without seeding it, so two runs of one testcase would test different inputs
and could disagree. Afterwards the interpreter's own sitecustomize, which
this file shadows on sys.path, runs as it would have.
"""
import importlib.machinery
import importlib.util
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_seed = os.environ.get("PTOLAB_CONFORMANCE_SEED")
if _seed:
    import random

    random.seed(int(_seed))
    try:
        import numpy.random
    except ImportError:
        pass
    else:
        numpy.random.seed(int(_seed))

_spec = importlib.machinery.PathFinder.find_spec(
    "sitecustomize", [p for p in sys.path if os.path.abspath(p or os.curdir) != _here])
if _spec is not None and _spec.loader is not None:
    _module = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_module)
