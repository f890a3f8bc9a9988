#!/usr/bin/env python3
"""Issue 13's slow and hostile clients against one node, as a client would act, each row on a fresh node.

usage: python3 scripts/hostile-clients.py BINARY [ROW…]   (scripts/hostile-clients builds the binary and runs this)

Rows: sse-unread, wire-unread, pipelined-gets, big-array, concurrent-puts, trickle, descriptors, input-edges.
Every figure is the node's RSS growth read from /proc/PID/status (VmRSS), or a time a client saw. Each row
prints its figure, the issue's bar and PASS or FAIL; the exit status is 1 when any row fails.
"""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no compiled copies of the scripts beside them
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from realtime_socket import open_websocket, text_frame  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/release/hearth"
MB = 1024 * 1024


class Memory:
    """The RSS of process `pid` (VmRSS in /proc/PID/status) and its peak, sampled every 20 ms until `stop()`."""

    def __init__(self, pid):
        self.pid = pid
        self.peak = self.rss()
        self.sampling = True
        threading.Thread(target=self.sample, daemon=True).start()

    def rss(self):
        with open(f"/proc/{self.pid}/status") as status:
            return int(re.search(r"VmRSS:\s+(\d+) kB", status.read()).group(1)) * 1024

    def sample(self):
        while self.sampling:
            try:
                self.peak = max(self.peak, self.rss())
            except (FileNotFoundError, ProcessLookupError, AttributeError):
                return
            time.sleep(0.02)

    def reset_peak(self):
        self.peak = self.rss()

    def stop(self):
        self.sampling = False


class Node:
    """A fresh `hearth serve` on a free loopback port with its own data directory; `ulimit` sets -n first."""

    def __init__(self, *flags, ulimit=None):
        self.work = tempfile.mkdtemp(prefix="hearth-hostile-")
        command = f'exec "{BINARY}" serve --port 0 --data "{self.work}/db" --log-level warning ' + " ".join(flags)
        if ulimit:
            command = f"ulimit -n {ulimit}; " + command
        self.process = subprocess.Popen(["bash", "-c", command], stdout=subprocess.PIPE,
                                        stderr=open(f"{self.work}/stderr", "w"), text=True)
        line = self.process.stdout.readline()
        match = re.search(r":(\d+)$", line.strip())
        if not match:
            with open(f"{self.work}/stderr") as stderr:
                reason = stderr.read()
            self.process.kill()
            subprocess.run(["rm", "-rf", self.work])
            raise SystemExit(f"hearth did not start: {reason}")
        self.port = int(match.group(1))
        self.memory = Memory(self.process.pid)

    @property
    def peak(self):
        return self.memory.peak

    def rss(self):
        return self.memory.rss()

    def reset_peak(self):
        self.memory.reset_peak()

    def stop(self):
        self.memory.stop()
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        subprocess.run(["rm", "-rf", self.work])


def connect(port, receive_buffer=None):
    sock = socket.socket()
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", port))
    sock.settimeout(30)
    return sock


def request(port, method, target, body=b"", timeout=30, headers=None):
    """One request on a fresh connection, with `headers` (a dict) besides the usual ones; (status, headers, body)."""
    sock = connect(port)
    sock.settimeout(timeout)
    target = target if isinstance(target, bytes) else target.encode()
    extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    head = f" HTTP/1.1\r\nHost: h\r\nContent-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n".encode()
    sock.sendall(method.encode() + b" " + target + head + body)
    data = b""
    while True:
        chunk = sock.recv(1 << 20)
        if not chunk:
            break
        data += chunk
    sock.close()
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and len(lines[0].split()) > 1 else 0
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return status, headers, rest


def timed_get(port, target="/probe.json"):
    start = time.monotonic()
    status, _, _ = request(port, "GET", target, timeout=10)
    return status, time.monotonic() - start


def probe_while(port, stop, latencies):
    """GETs another path every 100 ms until `stop` is set, recording each answer's time."""
    while not stop.is_set():
        try:
            latencies.append(timed_get(port)[1])
        except OSError:
            latencies.append(float("inf"))
        time.sleep(0.1)


def report(name, figure, bar, passed):
    print(f"{name:<18} {figure:<58} bar: {bar:<34} {'PASS' if passed else 'FAIL'}", flush=True)
    return passed


def unread_listeners(kind):
    """200 listeners on /room that never read (small receive buffers), one that reads, 100 writes of 64 KB."""
    node = Node()
    try:
        port = node.port
        silent = []
        for _ in range(200):
            if kind == "sse":
                sock = connect(port, receive_buffer=4096)
                sock.sendall(b"GET /room.json HTTP/1.1\r\nHost: h\r\nAccept: text/event-stream\r\n\r\n")
            else:
                sock = open_websocket(port, receive_buffer=4096)
                sock.sendall(text_frame(json.dumps({"t": "d", "d": {"r": 1, "a": "q", "b": {"p": "/room", "h": ""}}})))
            silent.append(sock)
        received = []
        reader = connect(port)
        reader.sendall(b"GET /room.json HTTP/1.1\r\nHost: h\r\nAccept: text/event-stream\r\n\r\n")

        def read_events():
            buffer = b""
            while len(received) < 100:
                try:
                    chunk = reader.recv(1 << 20)
                except OSError:
                    return
                if not chunk:
                    return
                buffer += chunk
                received.extend(re.findall(rb'"path":"/e(\d+)"', buffer))
                buffer = buffer[-64:]
        threading.Thread(target=read_events, daemon=True).start()
        time.sleep(1)
        node.reset_peak()
        before = node.rss()
        stop, latencies = threading.Event(), []
        prober = threading.Thread(target=probe_while, args=(port, stop, latencies), daemon=True)
        prober.start()
        value = json.dumps("x" * (64 * 1024 - 2)).encode()
        for index in range(100):
            request(port, "PUT", f"/room/e{index}.json", value)
        deadline = time.monotonic() + 10
        while len(set(received)) < 100 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)
        stop.set()
        prober.join()
        growth = node.peak - before
        got = len(set(received))
        worst = max(latencies) if latencies else float("inf")
        for sock in silent:
            sock.close()
        return report(f"{kind}-unread", f"RSS +{growth / MB:.0f} MB; reader got {got}/100; slowest GET {worst:.2f} s",
                      "≤ 256 MB, 100/100, ≤ 1 s", growth <= 256 * MB and got == 100 and worst <= 1.0)
    finally:
        node.stop()


def pipelined_gets():
    """20 connections, each pipelining 2,000 GETs of a 64 KB value and never reading."""
    node = Node()
    try:
        request(node.port, "PUT", "/big.json", json.dumps("y" * (64 * 1024 - 2)).encode())
        time.sleep(0.5)
        node.reset_peak()
        before = node.rss()
        sockets = []
        for _ in range(20):
            sock = connect(node.port, receive_buffer=4096)
            sock.setblocking(False)
            sockets.append([sock, b"GET /big.json HTTP/1.1\r\nHost: h\r\n\r\n" * 2000])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(pending for _, pending in sockets):
            for entry in sockets:
                try:
                    sent = entry[0].send(entry[1])
                    entry[1] = entry[1][sent:]
                except BlockingIOError:
                    pass
            time.sleep(0.01)
        time.sleep(3)
        growth = node.peak - before
        for sock, _ in sockets:
            sock.close()
        return report("pipelined-gets", f"RSS +{growth / MB:.0f} MB", "≤ 128 MB", growth <= 128 * MB)
    finally:
        node.stop()


def big_array():
    """One 16 MB JSON array of 4M small numbers: RSS retained per stored leaf, and at the peak."""
    node = Node()
    try:
        leaves = 4 * 1024 * 1024
        body = ("[" + ",".join(str(i % 10) for i in range(leaves)) + "]").encode()
        time.sleep(0.5)
        node.reset_peak()
        before = node.rss()
        status, _, _ = request(node.port, "PUT", "/array.json?writeSizeLimit=unlimited", body, timeout=300)
        time.sleep(2)
        retained = (node.rss() - before) / leaves
        peak = (node.peak - before) / leaves
        return report("big-array", f"status {status}; {retained:.0f} B retained per leaf, {peak:.0f} B at the peak",
                      "≤ 64 B, ≤ 96 B", status == 200 and retained <= 64 and peak <= 96)
    finally:
        node.stop()


def concurrent_puts():
    """Four concurrent 16 MB PUTs; meanwhile a small GET elsewhere every 100 ms."""
    node = Node()
    try:
        body = json.dumps({f"k{i}": "v" * 100 for i in range(140_000)}).encode()
        stop, latencies, statuses = threading.Event(), [], []
        prober = threading.Thread(target=probe_while, args=(node.port, stop, latencies), daemon=True)
        prober.start()

        def write(index):
            statuses.append(request(node.port, "PUT", f"/bulk{index}.json", body, 300)[0])
        writers = [threading.Thread(target=write, args=(i,)) for i in range(4)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join()
        stop.set()
        prober.join()
        worst = max(latencies) if latencies else float("inf")
        return report("concurrent-puts",
                      f"{len(body) / MB:.1f} MB bodies answered {statuses}; slowest GET elsewhere {worst:.2f} s",
                      "200s, ≤ 1 s", statuses == [200] * 4 and worst <= 1.0)
    finally:
        node.stop()


def trickle():
    """50 PUTs announcing 100 kB and sending one byte a second: how long until the node has closed them all."""
    node = Node()
    try:
        sockets = []
        for _ in range(50):
            sock = connect(node.port)
            sock.sendall(b"PUT /slow.json HTTP/1.1\r\nHost: h\r\nContent-Length: 100000\r\n\r\n")
            sock.setblocking(False)
            sockets.append(sock)
        start = time.monotonic()
        open_sockets = set(range(50))
        statuses = []
        while open_sockets and time.monotonic() - start < 60:
            for index in list(open_sockets):
                sock = sockets[index]
                try:
                    data = sock.recv(4096)
                    if data:
                        statuses.append(data.split(b" ")[1])
                    open_sockets.discard(index)
                    continue
                except BlockingIOError:
                    pass
                except OSError:
                    open_sockets.discard(index)
                    continue
                try:
                    sock.send(b"1")
                except OSError:
                    open_sockets.discard(index)
            time.sleep(1)
        elapsed = time.monotonic() - start
        answered = statuses.count(b"408")
        return report("trickle", f"all closed after {elapsed:.0f} s; {answered}/50 answered 408",
                      "all closed ≤ 30 s", not open_sockets and elapsed <= 30)
    finally:
        node.stop()


def descriptors():
    """A node with 1,024 descriptors and 1,100 idle keep-alive connections held: a new client, then released."""
    node = Node(ulimit=1024)
    try:
        held = []
        for _ in range(1100):
            sock = connect(node.port)
            sock.settimeout(5)
            sock.sendall(b"GET /.json HTTP/1.1\r\nHost: h\r\n\r\n")
            try:
                sock.recv(4096)
            except OSError:
                pass
            held.append(sock)
        try:
            status, seconds = timed_get(node.port, "/.json")
        except OSError:
            status, seconds = 0, float("inf")
        for sock in held:
            sock.close()
        time.sleep(0.5)
        after, _ = timed_get(node.port, "/.json")
        return report("descriptors", f"new client: {status} in {seconds:.2f} s; after release: {after}",
                      "an answer ≤ 2 s, then 200", status != 0 and seconds <= 2 and after == 200)
    finally:
        node.stop()


def input_edges():
    """Raw non-UTF-8 target bytes, a NUL in download=, Transfer-Encoding on HTTP/1.0."""
    node = Node()
    try:
        request(node.port, "PUT", "/d.json", b"1")
        raw, _, _ = request(node.port, "PUT", b"/a/\xff\xfe.json", b"1")
        _, headers, _ = request(node.port, "GET", "/d.json?download=a%00b")
        disposition = headers.get("Content-Disposition", "")
        sock = connect(node.port)
        sock.sendall(b"POST /te.json HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n1\r\n0\r\n\r\n")
        te = int(sock.recv(4096).split(b" ")[1])
        sock.close()
        clean = "\x00" not in disposition and disposition != ""
        return report("input-edges", f"raw bytes {raw}; download header {disposition!r}; HTTP/1.0 TE {te}",
                      "400, no control chars, 400", raw == 400 and clean and te == 400)
    finally:
        node.stop()


ROWS = {
    "sse-unread": lambda: unread_listeners("sse"),
    "wire-unread": lambda: unread_listeners("wire"),
    "pipelined-gets": pipelined_gets,
    "big-array": big_array,
    "concurrent-puts": concurrent_puts,
    "trickle": trickle,
    "descriptors": descriptors,
    "input-edges": input_edges,
}


def main():
    chosen = sys.argv[2:] or list(ROWS)
    unknown = [name for name in chosen if name not in ROWS]
    if unknown:
        raise SystemExit(f"unknown rows {unknown}; rows are {', '.join(ROWS)}")
    results = [ROWS[name]() for name in chosen]
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
