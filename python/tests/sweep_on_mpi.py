# The sweep of test_sweep_executors.py on an mpi4py MPIPoolExecutor, as on a cluster:
#   mpirun -n 3 python3 -m mpi4py.futures sweep_on_mpi.py '{"strategies": "rid", ...}'
# prints the number of runs sent to the pool, then the result as as_json() gives it.
import json
import sys

import dlbkit


def as_json(result):
    """The runs and the summary as JSON text, without the host's wall times."""
    def records(table):
        rows = table.to_dict("records") if hasattr(table, "to_dict") else table
        return [{k: v for k, v in row.items() if not k.startswith("wall_seconds")} for row in rows]
    return json.dumps({"runs": records(result.runs), "summary": records(result.summary)})


if __name__ == "__main__":
    from mpi4py.futures import MPIPoolExecutor

    class CountingPool(MPIPoolExecutor):
        """The pool of the world's other ranks, counting the runs it is given."""
        sent = 0

        def map(self, fn, *iterables, **kwargs):
            jobs = list(iterables[0])
            self.sent += len(jobs)
            return super().map(fn, jobs, *iterables[1:], **kwargs)

    with CountingPool() as pool:
        result = dlbkit.sweep(executor=pool, progress=False, **json.loads(sys.argv[1]))
        print(json.dumps({"runs sent": pool.sent}))
    print(as_json(result))
