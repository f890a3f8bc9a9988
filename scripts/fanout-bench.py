#!/usr/bin/env python3
"""Broadcast: many listeners on one location, small writes under it, against a Hearth node and Redis pub/sub.

usage: python3 scripts/fanout-bench.py HEARTH_BINARY [--listeners N] [--writes N] [--interval-ms MS]
                                       [--targets hearth,redis]   (scripts/bench-fanout runs this)

Hearth: N realtime-protocol (WebSocket) listeners on /room, one writer sending `writes` puts of a short string
to /room/mI, one every `interval-ms` (0: all at once). Redis: N SUBSCRIBE clients on one channel, one PUBLISH per
write, same pacing. The listeners run in two processes with non-blocking sockets and count the events they read.
Prints, per target: events delivered per second (from the first write to the last listener's last event), the
lag (the last write's send to its arrival at the last listener), each event's latency (from its write's send to
its arrival at a listener, read when the listener's process reads it: p50, p99, max), and the server's CPU per
delivered event (its utime + stime from /proc around the run). One JSON line per target, then a table.
"""
import argparse
import json
import multiprocessing
import os
import re
import selectors
import socket
import subprocess
import tempfile
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from realtime_socket import open_websocket, text_frame  # noqa: E402

# An event for write i, as each target sends it; group 1 is i.
HEARTH_EVENT = re.compile(rb'"p":"room/m(\d+)"')
REDIS_EVENT = re.compile(rb"message\r\n\$4\r\nroom\r\n\$\d+\r\nm(\d+)\r\n")


def listen_worker(target, port, count, writes, ready, results):
    """Opens `count` listeners, says ready, then counts events until each has all `writes` or 60 s pass; notes when
    each event for each write arrived."""
    selector = selectors.DefaultSelector()
    state = {}
    event = HEARTH_EVENT if target == "hearth" else REDIS_EVENT
    arrivals = []
    for _ in range(count):
        if target == "hearth":
            sock = open_websocket(port, namespace="bench")
            sock.sendall(text_frame(json.dumps({"t": "d", "d": {"r": 1, "a": "q", "b": {"p": "/room", "h": ""}}})))
        else:
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"*2\r\n$9\r\nSUBSCRIBE\r\n$4\r\nroom\r\n")
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        state[sock] = [0, b"", None]
    # Let every listen or subscription be answered before the writes begin.
    time.sleep(2)
    for sock in state:
        try:
            while sock.recv(1 << 16):
                pass
        except BlockingIOError:
            pass
    ready.put(True)
    pending = len(state)
    deadline = time.time() + 60
    while pending and time.time() < deadline:
        for key, _ in selector.select(timeout=1):
            sock = key.fileobj
            entry = state[sock]
            try:
                chunk = sock.recv(1 << 18)
            except BlockingIOError:
                continue
            if not chunk:
                selector.unregister(sock)
                pending -= 1
                continue
            now = time.time()
            data = entry[1] + chunk
            end = 0
            for match in event.finditer(data):
                entry[0] += 1
                arrivals.append((int(match.group(1)), now))
                end = match.end()
            # What follows the last event may be the start of the next one.
            entry[1] = data[max(end, len(data) - 256):]
            if entry[0] >= writes and entry[2] is None:
                entry[2] = time.time()
                pending -= 1
    counts = [entry[0] for entry in state.values()]
    finished = [entry[2] for entry in state.values() if entry[2] is not None]
    results.put((sum(counts), len(finished), max(finished) if finished else None, arrivals))
    for sock in state:
        sock.close()


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(target, port, pid, listeners, writes, interval):
    ready, results = multiprocessing.Queue(), multiprocessing.Queue()
    halves = [listeners // 2, listeners - listeners // 2]
    workers = [multiprocessing.Process(target=listen_worker, args=(target, port, n, writes, ready, results))
               for n in halves if n]
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.get(timeout=120)
    if target == "hearth":
        writer = open_websocket(port, namespace="bench")
        messages = [text_frame(json.dumps({"t": "d", "d": {"r": i + 2, "a": "p", "b": {"p": f"/room/m{i}", "d": "x"}}}))
                    for i in range(writes)]
    else:
        writer = socket.create_connection(("127.0.0.1", port))
        messages = [f"*3\r\n$7\r\nPUBLISH\r\n$4\r\nroom\r\n${len(str(i)) + 1}\r\nm{i}\r\n".encode() for i in range(writes)]
    cpu_before = cpu_seconds(pid)
    start = time.time()
    if interval == 0:
        sent = [start] * writes
        writer.sendall(b"".join(messages))
    else:
        sent = []
        for index, message in enumerate(messages):
            delay = start + index * interval / 1000 - time.time()
            if delay > 0:
                time.sleep(delay)
            sent.append(time.time())
            writer.sendall(message)
    last_write = time.time()
    outcomes = [results.get(timeout=120) for _ in workers]
    cpu = cpu_seconds(pid) - cpu_before
    for worker in workers:
        worker.join()
    writer.close()
    delivered = sum(outcome[0] for outcome in outcomes)
    complete = sum(outcome[1] for outcome in outcomes)
    ends = [outcome[2] for outcome in outcomes if outcome[2] is not None]
    end = max(ends) if ends and complete == listeners else None
    latencies = sorted(arrived - sent[index] for outcome in outcomes for index, arrived in outcome[3]
                       if index < writes)

    def percentile(fraction):
        return latencies[min(len(latencies) - 1, int(fraction * len(latencies)))] * 1000 if latencies else None

    return {
        "target": target, "listeners": listeners, "writes": writes, "intervalMs": interval,
        "delivered": delivered, "complete": complete,
        "eventsPerSecond": delivered / (end - start) if end else 0,
        "lagSeconds": end - last_write if end else None,
        "latencyMs": {"p50": percentile(0.5), "p99": percentile(0.99), "max": percentile(1.0)},
        "cpuMicrosPerEvent": cpu / delivered * 1e6 if delivered else None,
    }


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--listeners", type=int, default=2000)
    parser.add_argument("--writes", type=int, default=300)
    parser.add_argument("--interval-ms", type=float, default=5)
    parser.add_argument("--targets", default="hearth,redis")
    options = parser.parse_args()
    rows = []
    for target in options.targets.split(","):
        work = tempfile.mkdtemp(prefix="hearth-fanout-")
        if target == "hearth":
            process = subprocess.Popen([options.binary, "serve", "--port", "0", "--data", f"{work}/db",
                                        "--log-level", "warning"], stdout=subprocess.PIPE, text=True)
            port = int(re.search(r":(\d+)$", process.stdout.readline().strip()).group(1))
        else:
            port = free_port()
            process = subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--appendonly", "no",
                                        "--maxclients", str(options.listeners + 100)], stdout=subprocess.DEVNULL)
            time.sleep(0.5)
        try:
            row = run(target, port, process.pid, options.listeners, options.writes, options.interval_ms)
        finally:
            process.terminate()
            process.wait()
            subprocess.run(["rm", "-rf", work])
        print(json.dumps(row), flush=True)
        rows.append(row)
    print("\n| target | listeners | writes | interval | events/s delivered | lag after the last write "
          "| latency p50 / p99 / max | CPU per event |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        lag = f'{row["lagSeconds"]:.2f} s' if row["lagSeconds"] is not None else f'incomplete ({row["complete"]} done)'
        cpu = f'{row["cpuMicrosPerEvent"]:.1f} µs' if row["cpuMicrosPerEvent"] else "–"
        latency = row["latencyMs"]
        latency = (f'{latency["p50"]:.0f} / {latency["p99"]:.0f} / {latency["max"]:.0f} ms' if latency["p50"] is not None
                   else "–")
        print(f'| {row["target"]} | {row["listeners"]} | {row["writes"]} | {row["intervalMs"]:g} ms | '
              f'{row["eventsPerSecond"]:,.0f} | {lag} | {latency} | {cpu} |')


if __name__ == "__main__":
    main()
