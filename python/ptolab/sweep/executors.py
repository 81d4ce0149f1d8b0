"""Where cases run: a local process pool (threads, each waiting on its case's
process) or a Dask distributed cluster. Both call runcase.run_case per case
and hand each result to `on_result` as it arrives."""
from __future__ import annotations

import concurrent.futures
import os
import uuid

from . import runcase
from .cases import SweepError

# Worker losses a case may cause before it is reported "lost" (Dask's allowed-failures counts
# the workers that died while running the same task).
ALLOWED_WORKER_LOSSES = 3


def _worker_count(spec: str, jobs: int | None, example: str) -> int:
    """N of `name:N` (the job count, else the host's cores, when absent)."""
    n = spec.partition(":")[2]
    try:
        count = int(n) if n else (jobs or os.cpu_count() or 1)
    except ValueError:
        count = 0
    if count < 1:
        raise SweepError(f"--executor {spec}: N must be a whole number >= 1 (e.g. {example})")
    return count


def parse_executor(spec: str | None, jobs: int | None = None) -> tuple[str, str | int]:
    """("local", N) or ("dask", address-or-N): `local`, `local:N`, `dask://host:port`, `dask-local:N`."""
    spec = spec or "local"
    if spec == "local" or spec.startswith("local:"):
        return "local", _worker_count(spec, jobs, "local:4")
    if spec.startswith("dask://") or spec.startswith("tcp://"):
        return "dask", "tcp://" + spec.split("://", 1)[1]
    if spec == "dask-local" or spec.startswith("dask-local:"):
        return "dask", _worker_count(spec, jobs, "dask-local:2")
    raise SweepError(f"--executor {spec}: use local[:N], dask://HOST:PORT (a running scheduler) or dask-local[:N] "
                     "(a Dask cluster of N worker processes on this machine)")


def lost_result(case: dict, detail: str) -> dict:
    return {"id": case["id"], "kind": case.get("kind", "command"), "meta": case.get("meta") or {},
            "status": "lost", "exit_code": None, "seconds": 0.0, "detail": detail, "log_text": ""}


class LocalExecutor:
    def __init__(self, jobs: int):
        self.jobs = jobs
        self.description = f"local:{jobs}"

    def run(self, cases: list[dict], timeout: float, sync_timeout: float | None, on_result) -> None:
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futures = {pool.submit(runcase.run_case, c, timeout, sync_timeout): c for c in cases}
            try:
                for fut in concurrent.futures.as_completed(futures):
                    on_result(dict(fut.result(), attempts=1))
            except BaseException:
                for fut in futures:
                    fut.cancel()
                raise


class DaskExecutor:
    """Runs cases on a Dask cluster: an existing scheduler, or a LocalCluster of N single-threaded worker
    processes. A worker that dies mid-case makes the scheduler run the case on another worker; after
    ALLOWED_WORKER_LOSSES such deaths the case is reported "lost" and the sweep goes on."""

    def __init__(self, target):
        try:
            import dask
            import distributed  # noqa: F401
        except ImportError:
            raise SweepError("the Dask executor needs the distributed package: apt-get install python3-distributed "
                             "(or use --executor local:N)") from None
        self.target = target
        self.description = f"dask-local:{target}" if isinstance(target, int) else f"dask {target}"
        dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_WORKER_LOSSES - 1})

    def _client(self):
        from distributed import Client, LocalCluster
        if isinstance(self.target, int):
            cluster = LocalCluster(n_workers=self.target, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=40)
            return Client(cluster), cluster
        try:
            return Client(self.target, timeout=30), None
        except OSError as e:
            raise SweepError(f"cannot reach the Dask scheduler at {self.target}: {e}; start one "
                             "(dask-scheduler; dask-worker --nthreads 1 ADDRESS on each machine) or check the "
                             "address") from None

    def run(self, cases: list[dict], timeout: float, sync_timeout: float | None, on_result) -> None:
        import cloudpickle
        from distributed import as_completed
        from distributed.scheduler import KilledWorker
        # Workers need not have ptolab installed: the case runner travels with the task.
        cloudpickle.register_pickle_by_value(runcase)
        client, cluster = self._client()
        token = uuid.uuid4().hex[:8]
        try:
            futures = {}
            for c in cases:
                f = client.submit(runcase.run_case, c, timeout, sync_timeout, key=f"ptolab-case-{c['id']}-{token}",
                                  pure=False)
                futures[f] = c
            for fut in as_completed(futures):
                case = futures[fut]
                try:
                    r = fut.result()
                except KilledWorker:
                    r = lost_result(case, f"{ALLOWED_WORKER_LOSSES} workers died while running this case; "
                                          "run it alone (ptolab sweep --only ID) to see why")
                except Exception as e:  # the runner itself failed on the worker: report, go on
                    r = lost_result(case, f"the worker could not run the case: {type(e).__name__}: {e}")
                    r["status"] = "error"
                on_result(r)
                fut.release()
        finally:
            cloudpickle.unregister_pickle_by_value(runcase)
            client.close()
            if cluster is not None:
                cluster.close()


def make_executor(spec: str | None, jobs: int | None = None):
    kind, target = parse_executor(spec, jobs)
    return LocalExecutor(target) if kind == "local" else DaskExecutor(target)
