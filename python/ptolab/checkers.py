"""ptolab.check: run launches under ptosim's checkers (synccheck, racecheck,
memcheck, initcheck) from Python, as PTO_SIM_CHECK and `ptolab check` do for
a whole process (docs/checkers.md)."""
import contextlib
import json
import os

from . import _core


class CheckResult:
    """The reports of the launches that finished inside a `with ptolab.check()`
    block, as the dicts of PTO_SIM_CHECK_LOG's JSON lines."""

    def __init__(self, tools):
        self.tools = tools
        self.reports = []

    @property
    def errors(self):
        return [r for r in self.reports if r.get("severity") == "error"]

    def __repr__(self):
        return f"CheckResult(tools={self.tools!r}, reports={len(self.reports)}, errors={len(self.errors)})"


@contextlib.contextmanager
def check(tools="all"):
    """Turns the checkers `tools` ("sync", "race", "mem", "init", a comma
    list or "all") on for the launches of the block, then back to
    PTO_SIM_CHECK's setting:

        with ptolab.check("sync,race") as result:
            lib.call_add(...); ptolab.synchronize()
        assert not result.errors, result.reports

    Each report is also printed on stderr when its launch ends, and a launch
    with an error report still fails its synchronize as it does under
    PTO_SIM_CHECK. A bad tool name raises ValueError."""
    error = _core.check_configure(tools)
    if error:
        _core.check_configure(os.environ.get("PTO_SIM_CHECK", ""))
        raise ValueError(error)
    _core.check_take_reports()  # reports of earlier launches are not this block's
    result = CheckResult(tools)
    try:
        yield result
    finally:
        result.reports = [json.loads(line) for line in _core.check_take_reports()]
        _core.check_configure(os.environ.get("PTO_SIM_CHECK", ""))
