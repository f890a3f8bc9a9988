#!/usr/bin/env python3
"""Failover and catch-up times of a 3-node Hearth cluster (scripts/bench-failover.sh runs this).

usage: failover-bench.py BINARY WORKDIR [--kills N] [--down SECONDS]

Starts three nodes (16 shards, replication factor 3, --fsync batch) on free loopback ports. Writer threads, one per
node and shard, keep writing increasing numbers to their own key through REST. Then, N times: the node leading a
random shard is SIGKILLed; for every shard it led, the failover time is from the kill to the first acknowledgement
of a write *submitted after* the kill; the node stays down for --down seconds (the others keep writing, so it falls
behind) and is restarted from its data directory; its catch-up time is from the restart to its /.ready answering
200 (caught up, a leader known for every shard). At the end every key must hold, on every node, the same value, at
least the last acknowledged one. Prints one JSON line and a Markdown table; exits 1 when a check fails.
"""

import base64
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

NAMESPACE = "failover"
SHARDS = 16
# Open rules (anyone reads and writes), as the local clusters have: the writers are not administrators.
RULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cluster-config", "development.rules.json")
SHARD_DEPTH = 2


def shard_of(path_keys):
    """The shard of a path: FNV-1a of the namespace and its first SHARD_DEPTH keys (ShardRouter's ShardHash)."""
    value = 0xCBF29CE484222325
    for chunk in [NAMESPACE.encode()] + [b"/" + key.encode() for key in path_keys[:SHARD_DEPTH]]:
        for byte in chunk:
            value ^= byte
            value = (value * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value % SHARDS


def free_ports(count):
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def request(port, method, path, body=None, timeout=5, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Cluster:
    def __init__(self, binary, work):
        self.binary = binary
        self.work = work
        ports = free_ports(6)
        self.http = ports[:3]
        self.config = os.path.join(work, "cluster.json")
        nodes = [
            {"id": f"n{i + 1}", "host": "127.0.0.1", "httpPort": ports[i], "peerPort": ports[i + 3]} for i in range(3)
        ]
        # The cluster secret the nodes prove to each other, and the administrators' secret /.cluster asks for.
        secret_file = os.path.join(work, "cluster.secret")
        admin_file = os.path.join(work, "admin.secret")
        self.admin = base64.b64encode(os.urandom(32)).decode()
        for path, text in [(secret_file, base64.b64encode(os.urandom(32)).decode()), (admin_file, self.admin)]:
            with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
                file.write(text + "\n")
        with open(self.config, "w") as file:
            json.dump({"name": "failover", "shards": SHARDS, "replicationFactor": 3, "rules": RULES, "nodes": nodes,
                       "secretFile": secret_file, "databaseSecretFile": admin_file}, file)
        self.processes = [None, None, None]

    def start(self, index):
        log = open(os.path.join(self.work, f"n{index + 1}.log"), "ab")
        self.processes[index] = subprocess.Popen(
            [self.binary, "serve", "--config", self.config, "--node", f"n{index + 1}",
             "--data", os.path.join(self.work, f"n{index + 1}"), "--fsync", "batch", "--log-level", "warning"],
            stdout=log, stderr=log)

    def kill(self, index):
        self.processes[index].send_signal(signal.SIGKILL)
        self.processes[index].wait()
        self.processes[index] = None

    def stop_all(self):
        for process in self.processes:
            if process is not None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            if process is not None:
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()

    def ready(self, index):
        try:
            return request(self.http[index], "GET", "/.ready", timeout=1)[0] == 200
        except OSError:
            return False

    def wait_ready(self, index, limit=60):
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.ready(index):
                return True
            time.sleep(0.01)
        return False

    def leaders(self):
        """Shard → leader id, as a live node reports it."""
        for index in range(3):
            if self.processes[index] is None:
                continue
            try:
                status, body = request(self.http[index], "GET", "/.cluster", timeout=2,
                                       headers={"Authorization": f"Bearer {self.admin}"})
            except OSError:
                continue
            if status == 200:
                return {shard["shard"]: shard["leader"] for shard in json.loads(body)["shards"]}
        return {}


class Writers:
    """One thread per (node, shard): sequential PUTs of increasing numbers to its own key."""

    def __init__(self, cluster):
        self.cluster = cluster
        self.keys = {}
        candidate = 0
        while len(self.keys) < SHARDS * 3:
            key = f"k{candidate}"
            shard = shard_of(["fo", key])
            for node in range(3):
                if (node, shard) not in self.keys:
                    self.keys[(node, shard)] = key
                    break
            candidate += 1
        self.lock = threading.Lock()
        self.acks = {shard: [] for shard in range(SHARDS)}  # shard → [(submitted, acknowledged)], in answer order
        self.last = {}  # key → last acknowledged number
        self.attempted = {}  # key → last number sent
        self.errors = []  # (shard, node, when, what), for FAILOVER_VERBOSE
        self.stopping = threading.Event()
        self.threads = [
            threading.Thread(target=self.run, args=(node, shard, key), daemon=True)
            for (node, shard), key in self.keys.items()
        ]

    def start(self):
        for thread in self.threads:
            thread.start()

    def stop(self):
        self.stopping.set()
        for thread in self.threads:
            thread.join()

    def run(self, node, shard, key):
        number = 0
        connection = None
        while not self.stopping.is_set():
            number += 1
            with self.lock:
                self.attempted[key] = number
            submitted = time.monotonic()
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", self.cluster.http[node], timeout=20)
                connection.request("PUT", f"/fo/{key}.json?ns={NAMESPACE}", body=str(number))
                response = connection.getresponse()
                response.read()
                if response.status == 200:
                    acknowledged = time.monotonic()
                    with self.lock:
                        self.acks[shard].append((submitted, acknowledged))
                        self.last[key] = number
                else:
                    with self.lock:
                        self.errors.append((shard, node, submitted, time.monotonic(), f"{response.status}"))
                    time.sleep(0.02)
            except (OSError, http.client.HTTPException) as error:
                with self.lock:
                    self.errors.append((shard, node, submitted, time.monotonic(), type(error).__name__))
                if connection is not None:
                    connection.close()
                connection = None
                time.sleep(0.02)
            time.sleep(0.005)

    def first_ack_after(self, shard, moment):
        """The first acknowledgement of a write to `shard` submitted after `moment`."""
        first = None
        with self.lock:
            for submitted, acknowledged in reversed(self.acks[shard]):
                if acknowledged < moment:
                    break
                if submitted > moment:
                    first = acknowledged
        return first

    @property
    def count(self):
        with self.lock:
            return sum(len(acks) for acks in self.acks.values())


def main():
    binary, work = sys.argv[1], sys.argv[2]
    kills = int(sys.argv[sys.argv.index("--kills") + 1]) if "--kills" in sys.argv else 20
    down = float(sys.argv[sys.argv.index("--down") + 1]) if "--down" in sys.argv else 3.0
    cluster = Cluster(binary, work)
    for index in range(3):
        cluster.start(index)
    failovers, per_kill, catch_ups, failures = [], [], [], []
    writers = None
    try:
        for index in range(3):
            if not cluster.wait_ready(index):
                raise SystemExit(f"n{index + 1} never became ready; see {work}/n{index + 1}.log")
        time.sleep(8)  # leadership settles on the preferred leaders (they move every 3 s)
        writers = Writers(cluster)
        writers.start()
        time.sleep(2)
        rng = random.Random(1)
        for round_number in range(kills):
            leaders = cluster.leaders()
            victim_id = leaders.get(rng.randrange(SHARDS)) or next((l for l in leaders.values() if l), None)
            if victim_id is None:
                failures.append(f"round {round_number}: no leader known")
                time.sleep(1)
                continue
            victim = int(victim_id[1:]) - 1
            led = [shard for shard, leader in leaders.items() if leader == victim_id]
            killed = time.monotonic()
            cluster.kill(victim)
            deadline = killed + 30
            waiting = set(led)
            longest = 0.0
            while waiting and time.monotonic() < deadline:
                for shard in list(waiting):
                    ack = writers.first_ack_after(shard, killed)
                    if ack is not None:
                        if os.environ.get("FAILOVER_VERBOSE"):
                            with writers.lock:
                                failed = [
                                    f"n{n + 1} {(sent - killed) * 1000:.0f}→{(end - killed) * 1000:.0f} ms {what}"
                                    for (s, n, sent, end, what) in writers.errors
                                    if s == shard and end > killed and sent < ack
                                ]
                            print(f"  shard {shard}: {(ack - killed) * 1000:.0f} ms; failed: {failed[:6]}",
                                  file=sys.stderr)
                        failovers.append(ack - killed)
                        longest = max(longest, ack - killed)
                        waiting.discard(shard)
                time.sleep(0.005)
            if waiting:
                failures.append(f"round {round_number}: shards {sorted(waiting)} took no write for 30 s")
            per_kill.append(longest)
            time.sleep(max(0.0, down - (time.monotonic() - killed)))
            restarted = time.monotonic()
            cluster.start(victim)
            if cluster.wait_ready(victim):
                catch_ups.append(time.monotonic() - restarted)
            else:
                failures.append(f"round {round_number}: n{victim + 1} not ready 60 s after its restart")
            time.sleep(4)  # the preferred leader takes its shards back before the next kill
            print(f"kill {round_number + 1}/{kills}: n{victim + 1} led {len(led)} shards; "
                  f"slowest failover {longest * 1000:.0f} ms, catch-up {catch_ups[-1] * 1000 if catch_ups else 0:.0f} ms",
                  file=sys.stderr)
        writers.stop()
        for index in range(3):
            cluster.wait_ready(index)
        values = []
        for index in range(3):
            status, body = request(cluster.http[index], "GET", f"/fo.json?ns={NAMESPACE}", timeout=10)
            values.append(json.loads(body) if status == 200 else None)
        if not (values[0] == values[1] == values[2]):
            failures.append("the nodes hold different values")
        for key, last in writers.last.items():
            stored = (values[0] or {}).get(key)
            if stored is None or not (last <= stored <= writers.attempted[key]):
                failures.append(f"/fo/{key}: stored {stored}, acknowledged {last}, attempted {writers.attempted[key]}")
    finally:
        if writers is not None and not writers.stopping.is_set():
            writers.stop()
        cluster.stop_all()
    result = {
        "kills": kills, "downSeconds": down, "failoverSamples": len(failovers),
        "failoverP50Ms": percentile(failovers, 0.5) * 1000, "failoverP99Ms": percentile(failovers, 0.99) * 1000,
        "failoverMaxMs": max(failovers, default=float("nan")) * 1000,
        "perKillP99Ms": percentile(per_kill, 0.99) * 1000,
        "catchUpP50Ms": percentile(catch_ups, 0.5) * 1000, "catchUpP99Ms": percentile(catch_ups, 0.99) * 1000,
        "catchUpMaxMs": max(catch_ups, default=float("nan")) * 1000,
        "writesAcknowledged": writers.count if writers else 0, "failures": failures,
    }
    print(json.dumps(result))
    print("\n| figure | p50 ms | p99 ms | max ms | samples |")
    print("| --- | --- | --- | --- | --- |")
    print(f"| kill → next acknowledged write on each shard the node led | {result['failoverP50Ms']:.0f} | "
          f"{result['failoverP99Ms']:.0f} | {result['failoverMaxMs']:.0f} | {len(failovers)} |")
    print(f"| restart → /.ready (caught up after {down:.0f} s down) | {result['catchUpP50Ms']:.0f} | "
          f"{result['catchUpP99Ms']:.0f} | {result['catchUpMaxMs']:.0f} | {len(catch_ups)} |")
    for failure in failures:
        print(f"FAILED: {failure}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
