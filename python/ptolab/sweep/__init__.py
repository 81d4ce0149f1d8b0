"""ptolab.sweep: run a list of independent cases (a runner's shape grid, pto-isa testcases, commands
from a list file), each in its own process with
two timeout layers, on a local pool or a Dask cluster, sharded
deterministically, with a merged Markdown/JSON/JUnit report. docs/sweeps.md.

Nothing here needs ptolab's compiled runtime."""
from .cases import Case, from_grid, from_list_file
from .shard import parse_shard, select_shard
from .report import comparable, load_report, merge_reports

__all__ = ["Case", "comparable", "from_grid", "from_list_file", "load_report", "merge_reports", "parse_shard",
           "select_shard"]
