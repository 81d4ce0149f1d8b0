"""Cases and where they come from: a list file or a runner's declared grid."""
from __future__ import annotations

import ast
import dataclasses
import json
import os
import re
import shlex
import sys


class SweepError(Exception):
    """A mistake in the sweep's input, with what, where and how to fix it."""


@dataclasses.dataclass
class Case:
    id: str                      # unique in the sweep; the key of sharding, resume and merge
    argv: list[str]              # the process that is the case
    cwd: str | None = None
    env: dict[str, str] = dataclasses.field(default_factory=dict)  # on top of the sweep's environment
    timeout: float | None = None  # whole-process limit; None: the sweep's --timeout
    kind: str = "command"
    meta: dict = dataclasses.field(default_factory=dict)  # copied into the result as is

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Case":
        return cls(**{f.name: d[f.name] for f in dataclasses.fields(cls) if f.name in d})


ID_RE = re.compile(r"^[A-Za-z0-9_.:/=+,@-]+$")


def check_ids(cases: list[Case], where: str) -> None:
    seen = {}
    for i, c in enumerate(cases):
        if not ID_RE.match(c.id):
            raise SweepError(f"{where}: case id {c.id!r} has characters other than letters, digits and _.:/=+,@-; "
                             "rename it (ids name log files and JUnit test cases)")
        if c.id in seen:
            raise SweepError(f"{where}: case id {c.id!r} appears twice (entries {seen[c.id] + 1} and {i + 1}); "
                             "ids must be unique")
        seen[c.id] = i


def from_list_file(path: str) -> list[Case]:
    """One case per line: a JSON object ({"id", "argv" or "cmd", "cwd", "env", "timeout", "meta"}) or
    `ID COMMAND...` (COMMAND run by /bin/sh). Blank lines and lines starting with # are ignored;
    relative cwd is taken from the list file's directory, which is also the default cwd."""
    base = os.path.dirname(os.path.abspath(path))
    cases = []
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise SweepError(f"cannot read the case list {path}: {e.strerror}; pass an existing file to --list") from None
    for n, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        where = f"{path}:{n}"
        if text.startswith("{"):
            try:
                d = json.loads(text)
            except json.JSONDecodeError as e:
                raise SweepError(f"{where}: not valid JSON ({e.msg} at column {e.colno}); "
                                 "write one JSON object per line or `ID COMMAND`") from None
            if "id" not in d or ("argv" not in d and "cmd" not in d):
                raise SweepError(f"{where}: a JSON case needs \"id\" and \"argv\" (a list) or \"cmd\" (a shell "
                                 "command)")
            argv = d.pop("argv", None) or ["/bin/sh", "-c", d.pop("cmd")]
            d.pop("cmd", None)
            case = Case.from_dict(dict(d, argv=argv))
        else:
            parts = text.split(None, 1)
            if len(parts) < 2:
                raise SweepError(f"{where}: `{text}` has an id but no command; write `ID COMMAND`")
            case = Case(id=parts[0], argv=["/bin/sh", "-c", parts[1]])
        case.cwd = os.path.join(base, case.cwd) if case.cwd else base
        case.kind = "command" if case.kind == "command" else case.kind
        cases.append(case)
    check_ids(cases, path)
    return cases


def declared_grid(runner: str) -> list[dict]:
    """The runner's SWEEP_GRID: a module-level list of dicts (literals only; the runner is not imported)."""
    try:
        with open(runner) as f:
            tree = ast.parse(f.read(), runner)
    except (OSError, SyntaxError) as e:
        raise SweepError(f"cannot read the runner {runner}: {e}; pass a Python runner to --grid") from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "SWEEP_GRID"
                                                for t in node.targets):
            try:
                grid = ast.literal_eval(node.value)
            except ValueError:
                raise SweepError(f"{runner}:{node.lineno}: SWEEP_GRID must be a literal list of dicts "
                                 "(no names or calls) so it can be read without running the runner") from None
            if not isinstance(grid, list) or not all(isinstance(p, dict) and p for p in grid):
                raise SweepError(f"{runner}:{node.lineno}: SWEEP_GRID must be a list of non-empty dicts, "
                                 "e.g. [{\"shape\": \"64x64\", \"dtype\": \"float16\"}]")
            return grid
    raise SweepError(f"{runner} declares no SWEEP_GRID; add a module-level SWEEP_GRID = [{{...}}, ...] "
                     "whose keys are the runner's options")


def _value(v) -> str:
    return "x".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)


def from_grid(runner: str, python: str = sys.executable) -> list[Case]:
    """One case per grid point: `python runner --key value ...`, id `runner-name[key=value,...]`."""
    runner = os.path.abspath(runner)
    name = os.path.splitext(os.path.basename(runner))[0]
    cases = []
    for point in declared_grid(runner):
        argv = [python, runner]
        for k, v in point.items():
            argv += [f"--{k.replace('_', '-')}", _value(v)]
        label = ",".join(f"{k}={_value(v)}" for k, v in point.items())
        cases.append(Case(id=f"{name}:{label}", argv=argv, cwd=os.path.dirname(runner), kind="grid",
                          meta={"runner": runner, "point": point}))
    check_ids(cases, runner)
    return cases


def describe(case: Case) -> str:
    return " ".join(shlex.quote(a) for a in case.argv)
