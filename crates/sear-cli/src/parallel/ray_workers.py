#!/usr/bin/env python3
"""Starts the workers of `sear run --cluster ADDRESS --jobs N` on a Ray cluster.

sear's coordinator runs this script with the project's Python (the one Ray is installed in).
Ray does what it is for: it places one actor per worker on the cluster's nodes (one CPU
each), starts the sear binary there (found at the same path on every node: a shared path,
or the same installation), notices a lost node, and collects the workers' logs. Exploration,
prefixes and balancing stay in sear: each worker connects back to the coordinator's address
as a local worker does (SEAR_WORKER).

  --check: connect to the cluster and print its CPUs and nodes (a JSON line); exit 1 if Ray
           cannot be reached.
  otherwise: run the workers; print one JSON line per worker when it ends
           ({"worker": i, "exit": status, "node": id} or {"worker": i, "lost": reason}).
"""
import argparse
import json
import os
import subprocess
import sys
import time


# What a Ray Client head answers when the server process it starts for this client (one per
# connection) failed: Ray's client wraps the head's error ("Starting Ray client server
# failed", "Proxy failed to Connect", a psutil.ZombieProcess) in an "Initialization failure
# from server". The head itself answered, so trying again is what a user would do. Seen on
# this machine's kind in about one connection of twelve: the new process died at once,
# without a line in its log.
CLIENT_SERVER_FAILURES = (
    "Initialization failure from server",
    "Starting Ray client server failed",
    "Proxy failed to Connect",
)

# How many times a `ray://` connection is tried when the head's client server failed.
CLIENT_ATTEMPTS = 3


def connect(ray, address, options):
    """Connects the driver; returns None, or the last error (Ray raises several kinds for an
    unreachable address)."""
    attempts = CLIENT_ATTEMPTS if address.startswith("ray://") else 1
    for attempt in range(attempts):
        try:
            ray.init(address=address, logging_level="ERROR", log_to_driver=False, **options)
            return None
        except Exception as e:
            error = e
            if not any(f in str(e) for f in CLIENT_SERVER_FAILURES):
                break
            print(f"the Ray Client server failed (attempt {attempt + 1}): {e}", file=sys.stderr)
            try:
                ray.shutdown()
            except Exception:
                pass
            time.sleep(2)
    return f"{type(error).__name__}: {error}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--address", required=True, help="a Ray address, or auto")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--coordinator", default="")
    ap.add_argument("--dir", default="")
    ap.add_argument("--sear", default="")
    ap.add_argument("--cwd", default=os.getcwd(), help="the workers' working directory")
    ap.add_argument("argv", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # The script's own directory (a temporary one, maybe /tmp, which holds Ray's session
    # directory /tmp/ray) must not shadow the ray package.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    try:
        import ray
    except ImportError:
        print("Ray is not installed in " + sys.executable, file=sys.stderr)
        return 2
    options = {}
    if os.environ.get("SEAR_RAY_NODE_IP"):
        # This driver's own address (a test cluster bound to the loopback address).
        options["_node_ip_address"] = os.environ["SEAR_RAY_NODE_IP"]
    error = connect(ray, a.address, options)
    if error is not None:
        print(f"cannot connect to the Ray cluster at {a.address}: {error}", file=sys.stderr)
        return 1
    if a.check:
        cpus = ray.cluster_resources().get("CPU", 0)
        nodes = sum(1 for n in ray.nodes() if n.get("Alive"))
        print(json.dumps({"cpus": cpus, "nodes": nodes}), flush=True)
        return 0

    @ray.remote(num_cpus=1, max_restarts=0)
    class SearWorker:
        def run(self, cmd, env, log, cwd):
            with open(log, "wb") as out:
                p = subprocess.run(
                    cmd,
                    cwd=cwd,
                    env={**os.environ, **env},
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            return p.returncode, ray.get_runtime_context().get_node_id()

    argv = a.argv[1:] if a.argv[:1] == ["--"] else a.argv
    actors = [SearWorker.remote() for _ in range(a.workers)]
    refs = []
    for i, actor in enumerate(actors):
        env = {"SEAR_WORKER": f"{a.coordinator} {i} {os.path.join(a.dir, f'w{i}')}"}
        # The module the coordinator compiled once (on the shared file system).
        if os.environ.get("SEAR_WORKER_BITCODE"):
            env["SEAR_WORKER_BITCODE"] = os.environ["SEAR_WORKER_BITCODE"]
        log = os.path.join(a.dir, f"w{i}.log")
        refs.append(actor.run.remote([a.sear] + argv, env, log, a.cwd))
    status = 0
    for i, ref in enumerate(refs):
        try:
            code, node = ray.get(ref)
            print(json.dumps({"worker": i, "exit": code, "node": node}), flush=True)
        except ray.exceptions.RayError as e:
            lines = [l for l in str(e).strip().splitlines() if l.strip()]
            reason = lines[-1] if lines else "lost"
            print(json.dumps({"worker": i, "lost": reason}), flush=True)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
