#!/usr/bin/env python3
"""Issue 36's strangers on the network, each row tried as they would, on a fresh node or 3-node cluster.

usage: python3 scripts/strangers.py BINARY [ROW…]   (scripts/strangers builds the binary and runs this)

Single-node rows: lp-overflow, lp-many-segments, lp-far-ahead, listens, labels, owner-remote, regex, ondisconnect,
increment-overflow, unlimited-put, lp-upgrade-buffer, 412-leak. Cluster rows (`scripts/cluster up` on a copy of
cluster-config/local-3.json on free loopback ports): stranger-join, peer-frames, cluster-ops, hello-replace.
Every figure is the node's RSS growth read from /proc/PID/status (VmRSS), a time or status a client saw. Each row
checks afterwards that the node (every member) still answers /.health, prints its figure, the issue's target and
PASS or FAIL; the exit status is 1 when any row fails. Only 127.0.0.1 is ever contacted.
"""
import atexit
import base64
import importlib.util
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no compiled copies of the scripts beside them
SCRIPTS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(SCRIPTS, "lib"))
from realtime_socket import open_websocket, text_frame  # noqa: E402

_spec = importlib.util.spec_from_file_location("hostile_clients", os.path.join(SCRIPTS, "hostile-clients.py"))
hostile = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hostile)
MB, Memory, Node, connect, request, probe_while = (
    hostile.MB, hostile.Memory, hostile.Node, hostile.connect, hostile.request, hostile.probe_while)

BINARY = hostile.BINARY
REPOSITORY = os.path.dirname(SCRIPTS)
CLOSED_RULES = {"rules": {".read": False, ".write": False}}
RULES_DIRECTORY = tempfile.mkdtemp(prefix="hearth-strangers-rules-")
atexit.register(shutil.rmtree, RULES_DIRECTORY, True)


def report(name, figure, target, passed):
    print(f"{name:<20} {figure:<70} target: {target:<40} {'PASS' if passed else 'FAIL'}", flush=True)
    return passed


def healthy(port):
    """Whether the node on `port` answers /.health with 200 within 5 s."""
    try:
        return request(port, "GET", "/.health", timeout=5)[0] == 200
    except OSError:
        return False


def rules_file(rules):
    """A rules document in a file of its own, for `--rules`; the files' directory goes when the script ends."""
    descriptor, path = tempfile.mkstemp(prefix="rules-", suffix=".json", dir=RULES_DIRECTORY)
    with os.fdopen(descriptor, "w") as file:
        json.dump(rules, file)
    return path


def free_ports(count):
    """`count` loopback ports free a moment ago (bound together, then released), for a cluster's configuration."""
    sockets = [socket.socket() for _ in range(count)]
    for sock in sockets:
        sock.bind(("127.0.0.1", 0))
    ports = [sock.getsockname()[1] for sock in sockets]
    for sock in sockets:
        sock.close()
    return ports


def web_safe(text):
    """A message as a long-polling browser sends it: base64 with `-`, `_` and `.` for `+`, `/` and `=`."""
    return base64.b64encode(text.encode()).decode().translate(str.maketrans("+/=", "-_."))


def wire(request_id, action, body):
    """One realtime-protocol request as JSON text: request number, action and body."""
    return json.dumps({"t": "d", "d": {"r": request_id, "a": action, "b": body}})


class StatusCounter:
    """Reads a realtime socket on a thread until it closes, counting the response statuses (`"s":"…"`) it sees,
    keeping the first refusal's text and the last bytes before the node closed the connection (its reason)."""

    def __init__(self, sock):
        self.sock = sock
        self.counts = {}
        self.refusal = None
        self.closed = False
        self.last = b""
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        tail = b""
        while True:
            try:
                chunk = self.sock.recv(1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                self.closed = True
                return
            data = tail + chunk
            self.last = (self.last + chunk)[-300:]
            for match in re.finditer(rb'"s":"([a-z_]+)"(,"d":"([^"]{0,200}))?', data):
                status = match.group(1).decode()
                self.counts[status] = self.counts.get(status, 0) + 1
                if status != "ok" and self.refusal is None:
                    self.refusal = f"{status}: {(match.group(3) or b'').decode(errors='replace')}"
            # A status cut by the end of this read is found whole in the next one; a match never spans 300 bytes.
            cut = data.rfind(b'"s":"')
            tail = data[cut:] if cut >= 0 and len(data) - cut < 300 and b'"' not in data[cut + 5:] else b""

    @property
    def answered(self):
        return sum(self.counts.values())

    def goodbye(self):
        """What the node said last before it closed the connection, or None while it is open."""
        return re.sub(r"[^ -~]+", " ", self.last.decode(errors="replace"))[-160:] if self.closed else None

    def wait(self, count, seconds):
        deadline = time.monotonic() + seconds
        while self.answered < count and not self.closed and time.monotonic() < deadline:
            time.sleep(0.1)


def send_all(sock, frames, seconds):
    """Sends `frames` (bytes) on a blocking socket until done, the peer closes, or `seconds` pass; how many went."""
    sock.settimeout(seconds)
    deadline = time.monotonic() + seconds
    sent = 0
    try:
        for frame in frames:
            if time.monotonic() > deadline:
                break
            sock.sendall(frame)
            sent += 1
    except OSError:
        pass
    return sent


class LongPoll:
    """A long-polling session (`/.lp`) driven by raw requests: two keep-alive connections taking turns, so each new
    poll releases the one the node holds and its answer is read at once."""

    def __init__(self, port):
        self.port = port
        status, _, body = request(port, "GET", "/.lp?start=t&ser=1&cb=1&v=5")
        match = re.search(rb"pLPCommand\('start','([^']+)','([^']+)'\)", body)
        if status != 200 or not match:
            raise SystemExit(f"no long-poll session: {status} {body[:200]!r}")
        self.id, self.password = match.group(1).decode(), match.group(2).decode()
        self.serial = 2
        self.connections = [connect(port), connect(port)]
        self.pending = None

    def target(self, segments):
        """The poll's target carrying `segments`, a list of (number, total, data)."""
        query = "".join(f"&seg{index}={number}&ts{index}={total}&d{index}={data}"
                        for index, (number, total, data) in enumerate(segments))
        self.serial += 1
        return f"/.lp?id={self.id}&pw={self.password}&ser={self.serial}{query}"

    def poll(self, segments, timeout=30):
        """Sends one poll on the connection not in use, then reads the answer to the previous poll (which this
        one released); the status of that answer, or 0 when the node closed or did not answer in `timeout`."""
        sock = self.connections[self.serial % 2]
        sock.sendall(f"GET {self.target(segments)} HTTP/1.1\r\nHost: h\r\n\r\n".encode())
        previous, self.pending = self.pending, sock
        return self.read(previous, timeout) if previous else 200

    def finish(self, timeout=30):
        return self.read(self.pending, timeout) if self.pending else 200

    @staticmethod
    def read(sock, timeout):
        sock.settimeout(timeout)
        data = b""
        try:
            while b"\r\n\r\n" not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    return 0
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
            while len(body) < length:
                chunk = sock.recv(65536)
                if not chunk:
                    return 0
                body += chunk
            return int(head.split()[1])
        except (OSError, AttributeError, ValueError):
            return 0

    def close(self):
        for sock in self.connections:
            sock.close()


def lp_overflow():
    """A poll whose first segment completes a message and whose second announces 2^63-1 segments."""
    node = Node()
    try:
        session = LongPoll(node.port)
        ping = web_safe(json.dumps({"t": "c", "d": {"t": "p", "d": {}}}))
        status = request(node.port, "GET", session.target([(0, 1, ping), (1, 9223372036854775807, "AA")]),
                         timeout=25)[0] if node.process.poll() is None else 0
        time.sleep(0.5)
        alive = node.process.poll() is None and healthy(node.port)
        session.close()
        return report("lp-overflow", f"poll answered {status}; node {'up' if alive else 'DEAD'}",
                      "answers, stays up", status != 0 and alive)
    except OSError as error:
        return report("lp-overflow", f"node dropped the poll ({error}); node {'up' if healthy(node.port) else 'DEAD'}",
                      "answers, stays up", False)
    finally:
        node.stop()


def lp_many_segments():
    """A first segment announcing 10^12 segments, then 40,000 more in 200 polls sent at once; then a read."""
    node = Node()
    try:
        session = LongPoll(node.port)
        targets = [session.target([(0, 10 ** 12, "AA")])]
        for batch in range(200):
            targets.append(session.target([(1 + batch * 200 + index, 10 ** 12, "AA") for index in range(200)]))
        sockets = []
        for target in targets:
            sock = connect(node.port)
            sock.sendall(f"GET {target} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".encode())
            sockets.append(sock)
        start = time.monotonic()
        try:
            status = request(node.port, "GET", "/.json", timeout=60)[0]
        except OSError:
            status = 0
        seconds = time.monotonic() - start
        for sock in sockets:
            sock.close()
        session.close()
        alive = healthy(node.port)
        return report("lp-many-segments", f"GET /.json after: {status} in {seconds:.2f} s; node {'up' if alive else 'DEAD'}",
                      "answered ≤ 2 s", status == 200 and seconds <= 2 and alive)
    finally:
        node.stop()


def lp_far_ahead():
    """60,000 segments of 1,800 bytes numbered far ahead of the next expected one, 16 to a poll."""
    node = Node()
    try:
        session = LongPoll(node.port)
        time.sleep(0.5)
        node.reset_peak()
        before = node.rss()
        data = "A" * 1800
        statuses = set()
        deadline = time.monotonic() + 50
        sent = 0
        while sent < 60000 and time.monotonic() < deadline:
            statuses.add(session.poll([(1_000_000_000 + sent + index, 1, data) for index in range(16)]))
            sent += 16
            if 0 in statuses:
                break
        statuses.add(session.finish())
        time.sleep(1)
        growth = node.peak - before
        session.close()
        alive = healthy(node.port)
        return report("lp-far-ahead", f"{sent} segments sent, polls {sorted(statuses)}; RSS +{growth / MB:.0f} MB; "
                      f"node {'up' if alive else 'DEAD'}", "≤ 64 MB", growth <= 64 * MB and alive)
    finally:
        node.stop()


def listens():
    """One WebSocket pipelining 300,000 listens on distinct paths."""
    node = Node()
    try:
        frames = (text_frame(wire(index, "q", {"p": f"/l/{index}", "h": ""})) for index in range(300000))
        return flood_row(node, "listens", frames, 15, 128)
    finally:
        node.stop()


def flood_row(node, row, frames, wait_seconds, bar_mb):
    """Sends `frames` down one realtime WebSocket (45 s at most), waits for their answers, and reports the RSS growth
    against `bar_mb`, or the refusal the node sent, with the node still healthy."""
    sock = open_websocket(node.port)
    counter = StatusCounter(sock)
    time.sleep(0.5)
    node.reset_peak()
    before = node.rss()
    sent = send_all(sock, frames, 45)
    counter.wait(sent, wait_seconds)
    growth = node.peak - before
    why = counter.refusal or counter.goodbye()
    sock.close()
    alive = healthy(node.port)
    refused = why is not None
    return report(row, f"{sent} sent, {counter.counts.get('ok', 0)} acknowledged; RSS +{growth / MB:.0f} MB"
                  + (f"; refused {why[:90]!r}" if refused else ""),
                  f"≤ {bar_mb} MB or refused clearly", (growth <= bar_mb * MB or refused) and alive)


def labels():
    """100 realtime messages with unknown 60 KB actions, and 100 HTTP requests with invented 4 KB methods; the RSS
    peak includes one read of /.metrics."""
    node = Node()
    try:
        sock = open_websocket(node.port)
        counter = StatusCounter(sock)
        time.sleep(0.5)
        node.reset_peak()
        before = node.rss()
        frames = (text_frame(wire(index, f"{index:03d}" + "z" * 60000, {})) for index in range(100))
        send_all(sock, frames, 30)
        counter.wait(100, 15)
        methods = set()
        for index in range(100):
            try:
                methods.add(request(node.port, f"M{index:03d}" + "X" * 4000, "/.json", timeout=10)[0])
            except OSError:
                methods.add(0)
        metrics = len(request(node.port, "GET", "/.metrics")[2])
        time.sleep(1)
        retained = node.rss() - before
        peak = node.peak - before
        sock.close()
        alive = healthy(node.port)
        return report("labels", f"RSS peak +{peak / MB:.1f} MB (kept +{retained / MB:.1f}); /.metrics {metrics / MB:.2f} MB; "
                      f"methods got {sorted(methods)}", "≤ 16 MB, ≤ 1 MB",
                      peak <= 16 * MB and metrics <= MB and alive)
    finally:
        node.stop()


def owner_remote():
    """A node on 0.0.0.0 (reached on 127.0.0.1) with closed rules and no secrets, asked by `Bearer owner`."""
    rules = rules_file(CLOSED_RULES)
    node = Node("--host 0.0.0.0", f'--rules "{rules}"')
    try:
        owner = {"Authorization": "Bearer owner"}
        read = request(node.port, "GET", "/.json", headers=owner)[0]
        open_rules = json.dumps({"rules": {".read": True, ".write": True}}).encode()
        replaced = request(node.port, "PUT", "/.settings/rules.json", open_rules, headers=owner)[0]
        after = request(node.port, "GET", "/.json")[0]
        alive = healthy(node.port)
        return report("owner-remote", f"owner read {read}, rules replacement {replaced}; anonymous read after {after}",
                      "401, 401", read == 401 and replaced == 401 and alive)
    finally:
        node.stop()


def regex():
    """A `.validate` with /^(a|aa)+$/ and a 41-character write that makes a backtracking engine explode."""
    rules = rules_file({"rules": {".read": True, ".write": True,
                                  "r": {".validate": "newData.val().matches(/^(a|aa)+$/)"}}})
    node = Node(f'--rules "{rules}"')
    answered = False
    try:
        stop, latencies, outcome = threading.Event(), [], {}
        prober = threading.Thread(target=probe_while, args=(node.port, stop, latencies), daemon=True)
        prober.start()
        time.sleep(0.3)

        def write():
            start = time.monotonic()
            try:
                outcome["status"] = request(node.port, "PUT", "/r.json", json.dumps("a" * 40 + "b").encode(), 20)[0]
            except OSError:
                outcome["status"] = 0
            outcome["seconds"] = time.monotonic() - start
        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        writer.join(20)
        time.sleep(0.5)
        stop.set()
        prober.join(12)
        answered = "seconds" in outcome and outcome["status"] != 0
        worst = max(latencies) if latencies else float("inf")
        alive = healthy(node.port)
        figure = (f"write answered {outcome['status']} in {outcome['seconds']:.2f} s" if answered
                  else "write not answered in 20 s") + f"; slowest other read {worst:.2f} s"
        return report("regex", figure, "answered ≤ 2 s, reads ≤ 1 s",
                      answered and outcome["seconds"] <= 2 and worst <= 1 and alive)
    finally:
        if not answered:
            node.process.kill()
        node.stop()


def ondisconnect():
    """One realtime session registering 400 onDisconnect sets (`o`) of 1 MB."""
    node = Node()
    try:
        value = "v" * MB
        frames = (text_frame(wire(index, "o", {"p": f"/od/{index}", "d": value})) for index in range(400))
        return flood_row(node, "ondisconnect", frames, 10, 256)
    finally:
        node.stop()


def increment_overflow():
    """`{".sv":{"increment":1e308}}` written twice: the second cannot be represented."""
    node = Node()
    try:
        body = b'{".sv":{"increment":1e308}}'
        first = request(node.port, "PUT", "/n.json", body)[0]
        second, _, answer = request(node.port, "PUT", "/n.json", body)
        value = request(node.port, "GET", "/n.json")[2].decode()
        alive = healthy(node.port)
        kept = value.strip() not in ("null", "") and float(value) == 1e308
        return report("increment-overflow", f"writes {first}, {second} {answer[:60].decode(errors='replace')}; "
                      f"value after {value}", "2nd fails, value 1e308", second >= 400 and kept and alive)
    finally:
        node.stop()


def unlimited_put():
    """An anonymous `PUT ?writeSizeLimit=unlimited` of 200 MB under rules that deny every write."""
    rules = rules_file(CLOSED_RULES)
    node = Node(f'--rules "{rules}"')
    try:
        time.sleep(0.5)
        node.reset_peak()
        before = node.rss()
        # An object of 204,800 members of 1 KB each (`"k00000001":"xx…x",`): 200 MB of valid JSON.
        members = 200 * 1024
        sock = connect(node.port)
        sock.settimeout(30)
        head = (f"PUT /x.json?writeSizeLimit=unlimited HTTP/1.1\r\nHost: h\r\nContent-Length: {members * 1024 + 1}"
                "\r\nConnection: close\r\n\r\n").encode()
        filler = "x" * 1009
        answer = []

        def read():
            # Read while sending: a node that answers early and closes must not lose its answer to a reset.
            try:
                while True:
                    more = sock.recv(65536)
                    if not more:
                        return
                    answer.append(more)
            except OSError:
                return
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            sock.sendall(head + b"{")
            for first in range(0, members, 1024):
                chunk = ",".join(f'"k{index:08d}":"{filler}"' for index in range(first, first + 1024))
                sock.sendall(chunk.encode() + (b"," if first + 1024 < members else b"}"))
        except OSError:
            pass
        reader.join(30)
        sock.close()
        data = b"".join(answer)
        status = int(data.split()[1]) if len(data.split()) > 1 else 0
        error = data.partition(b"\r\n\r\n")[2][:60].decode(errors="replace")
        time.sleep(0.5)
        growth = node.peak - before
        alive = healthy(node.port)
        return report("unlimited-put", f"status {status} {error}; RSS +{growth / MB:.0f} MB", "refused, ≤ 64 MB",
                      400 <= status < 500 and growth <= 64 * MB and alive)
    finally:
        node.stop()


def lp_upgrade_buffer():
    """A long-polling session whose WebSocket upgrade sends 200 writes of 1 MB before the long poll says `n`."""
    node = Node()
    try:
        session = LongPoll(node.port)
        sock = open_websocket(node.port, session=session.id)
        time.sleep(0.5)
        node.reset_peak()
        before = node.rss()
        value = "u" * MB
        frames = (text_frame(wire(index, "p", {"p": f"/u/{index}", "d": value})) for index in range(200))
        sent = send_all(sock, frames, 40)
        time.sleep(2)
        growth = node.peak - before
        sock.close()
        session.close()
        alive = healthy(node.port)
        return report("lp-upgrade-buffer", f"{sent} MB sent before the switch; RSS +{growth / MB:.0f} MB", "≤ 128 MB",
                      growth <= 128 * MB and alive)
    finally:
        node.stop()


def leak_412():
    """Rules letting anyone write and no one read; a `PUT` with a wrong `If-Match`: the 412 must not carry the
    value."""
    rules = rules_file({"rules": {".read": False, ".write": True}})
    node = Node(f'--rules "{rules}"')
    try:
        stored = request(node.port, "PUT", "/s.json", b'"the-secret-value"')[0]
        status, _, body = request(node.port, "PUT", "/s.json", b'"x"', headers={"If-Match": '"wrong"'})
        leaked = b"the-secret-value" in body
        alive = healthy(node.port)
        return report("412-leak", f"write {stored}; wrong If-Match {status}, body {body[:50]!r}",
                      "no value in the body", stored == 200 and status >= 400 and not leaked and alive)
    finally:
        node.stop()


class Cluster:
    """A 3-node cluster from `scripts/cluster up` on a copy of cluster-config/local-3.json with free loopback ports,
    its data in a temporary directory. With a build that knows the cluster secret, the copy names a secret file and
    a database secret file of 32 random bytes (base64) each, made here; the stranger never reads them."""

    def __init__(self):
        self.work = tempfile.mkdtemp(prefix="hearth-strangers-cluster-")
        with open(os.path.join(REPOSITORY, "cluster-config", "local-3.json")) as file:
            config = json.load(file)
        ports = free_ports(6)
        for index, node in enumerate(config["nodes"]):
            node["httpPort"], node["peerPort"] = ports[index], ports[3 + index]
        config["name"] = "strangers"
        config["dataDirectory"] = os.path.join(self.work, "data")
        config["rules"] = os.path.join(REPOSITORY, config["rules"])
        self.config = os.path.join(self.work, "cluster.json")
        secrets = {"secretFile": "cluster.secret", "databaseSecretFile": "database.secret"}
        for key, name in secrets.items():
            with open(os.path.join(self.work, name), "w") as file:
                file.write(base64.b64encode(os.urandom(32)).decode() + "\n")
            os.chmod(os.path.join(self.work, name), 0o600)
            config[key] = os.path.join(self.work, name)
        self.write(config)
        if subprocess.run([BINARY, "cluster", "describe", "--config", self.config], capture_output=True).returncode:
            for key in secrets:
                del config[key]
            self.write(config)
        self.name = config["name"]
        self.nodes = {node["id"]: (node["httpPort"], node["peerPort"]) for node in config["nodes"]}
        self.data = config["dataDirectory"]
        self.environment = dict(os.environ, HEARTH_BINARY=BINARY, HEARTH_CLUSTER_TIMEOUT="60",
                                HEARTH_CLUSTER_STATE=os.path.join(self.work, "state"))
        started = self.script("up", self.config, timeout=90)
        if started.returncode:
            self.stop()
            raise SystemExit(f"scripts/cluster up failed:\n{started.stdout}{started.stderr}")

    def write(self, config):
        with open(self.config, "w") as file:
            json.dump(config, file, indent=2)

    def script(self, *arguments, timeout=60):
        return subprocess.run([os.path.join(SCRIPTS, "cluster"), *arguments], env=self.environment,
                              capture_output=True, text=True, timeout=timeout)

    def pid(self, node):
        with open(os.path.join(self.data, f"{node}.pid")) as file:
            return int(file.read())

    def http(self, node):
        return self.nodes[node][0]

    def peer(self, node):
        return self.nodes[node][1]

    def all_healthy(self):
        return all(healthy(self.http(node)) for node in self.nodes)

    def members(self):
        """Member ids in `hearth cluster status --json`, which reads the database secret file when there is one."""
        result = subprocess.run([BINARY, "cluster", "status", "--config", self.config, "--json"],
                                capture_output=True, text=True, timeout=30)
        return set(re.findall(r'"(?:id|node)"\s*:\s*"([^"]+)"', result.stdout))

    def stop(self):
        try:
            self.script("down", "--wipe", timeout=60)
        except subprocess.TimeoutExpired:
            pass
        for node in self.nodes:
            try:
                os.kill(self.pid(node), 9)
            except (OSError, ValueError):
                pass
        shutil.rmtree(self.work, ignore_errors=True)


def stranger_join():
    """`hearth serve --join <member>:<peer port> --node evil` without the cluster's secret."""
    cluster = Cluster()
    evil = None
    try:
        wrote = request(cluster.http("n1"), "PUT", "/secret.json", b'"cluster-data"')[0]
        http, peer = free_ports(2)
        directory = os.path.join(cluster.work, "evil")
        log = open(os.path.join(cluster.work, "evil.log"), "w")
        command = [BINARY, "serve", "--join", f"127.0.0.1:{cluster.peer('n1')}", "--node", "evil", "--host",
                   "127.0.0.1", "--port", str(http), "--peer-port", str(peer), "--data", directory,
                   "--log-level", "warning"]
        # A build that knows cluster secrets gets one from the stranger too: a well-made secret, not the cluster's.
        with open(BINARY, "rb") as binary:
            if b"--cluster-secret-file" in binary.read():
                guess = os.path.join(cluster.work, "guessed.secret")
                with open(guess, "w") as file:
                    file.write(base64.b64encode(os.urandom(32)).decode() + "\n")
                command += ["--cluster-secret-file", guess]
        evil = subprocess.Popen(command, stdout=log, stderr=log)
        ready = False
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and evil.poll() is None and not ready:
            try:
                ready = request(http, "GET", "/.ready", timeout=2)[0] == 200
            except OSError:
                pass
            time.sleep(0.5)
        try:
            served = request(http, "GET", "/secret.json", timeout=5)[2].strip() == b'"cluster-data"'
        except OSError:
            served = False
        members = cluster.members()
        listed = set(cluster.nodes) <= members
        member = "yes" if "evil" in members else "no" if listed else "unknown (cluster status listed no members)"
        alive = cluster.all_healthy()
        return report("stranger-join", f"ready {'yes' if ready else 'no'}, serves data {'yes' if served else 'no'}, "
                      f"member {member}; cluster wrote {wrote}, members {'up' if alive else 'NOT UP'}",
                      "no, no, no", not ready and not served and member == "no" and wrote == 200 and alive)
    finally:
        if evil:
            evil.kill()
            evil.wait()
        cluster.stop()


def peer_frames():
    """50 connections to a member's peer port, each starting a 16 MB frame without a hello and holding it."""
    cluster = Cluster()
    try:
        memory = Memory(cluster.pid("n1"))
        time.sleep(0.5)
        memory.reset_peak()
        before = memory.rss()
        header = struct.pack("<IB", 16 * MB, 1)
        sockets = []
        for _ in range(50):
            sock = socket.create_connection(("127.0.0.1", cluster.peer("n1")), timeout=5)
            sock.setblocking(False)
            sockets.append([sock, header + b"\0" * (16 * MB - 1)])
        sent, cut = 0, 0
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(pending for _, pending in sockets):
            for entry in sockets:
                if not entry[1]:
                    continue
                try:
                    count = entry[0].send(entry[1][:1 << 20])
                    entry[1] = entry[1][count:]
                    sent += count
                except BlockingIOError:
                    pass
                except OSError:
                    entry[1] = b""
                    cut += 1
            time.sleep(0.005)
        time.sleep(2)
        growth = memory.peak - before
        memory.stop()
        for sock, _ in sockets:
            sock.close()
        alive = cluster.all_healthy()
        return report("peer-frames", f"{sent / MB:.0f} MB sent, {cut} connections cut by the node; "
                      f"RSS +{growth / MB:.0f} MB; members {'up' if alive else 'NOT ALL UP'}",
                      "≤ 64 MB", growth <= 64 * MB and alive)
    finally:
        cluster.stop()


def cluster_ops():
    """Anonymous `GET /.cluster`, `POST /.cluster/partition`, `/.cluster/heal` and `/.cluster/remove` on every
    member."""
    cluster = Cluster()
    try:
        answers = {}
        for node in cluster.nodes:
            port = cluster.http(node)
            answers[node] = [
                request(port, "GET", "/.cluster")[0],
                request(port, "POST", "/.cluster/partition", json.dumps({"peers": ["n3" if node != "n3" else "n1"]})
                        .encode())[0],
                request(port, "POST", "/.cluster/heal", b"{}")[0],
                request(port, "POST", "/.cluster/remove", b'{"node":"n2"}')[0],
            ]
        refused = all(status in (401, 403) for statuses in answers.values() for status in statuses)
        alive = cluster.all_healthy()
        figure = "; ".join(f"{node} {'/'.join(map(str, statuses))}" for node, statuses in answers.items())
        return report("cluster-ops", f"get/partition/heal/remove: {figure}", "401/403 everywhere", refused and alive)
    finally:
        cluster.stop()


def hello_replace():
    """A hello on n3's peer port naming n1 (a member n3 accepts connections from) and the cluster's name, both
    shown by `GET /.cluster` today: which frames n3 sends the impostor after it, and whether writes go on."""
    cluster = Cluster()
    try:
        payload = b"HRTH" + struct.pack("<H", 1)
        for text in (cluster.name, "n1"):
            payload += struct.pack("<H", len(text)) + text.encode()
        sock = socket.create_connection(("127.0.0.1", cluster.peer("n3")), timeout=5)
        sock.sendall(struct.pack("<IB", len(payload), 0) + payload)
        kinds, data = {}, b""
        writes = []

        def write():
            for index in range(5):
                try:
                    writes.append(request(cluster.http("n3"), "PUT", f"/hr/{index}.json", b"1", timeout=8)[0])
                except OSError:
                    writes.append(0)
        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        deadline = time.monotonic() + 6
        sock.settimeout(0.5)
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(1 << 20)
                if not chunk:
                    break
                data += chunk
            except socket.timeout:
                continue
            except OSError:
                break
            while len(data) >= 5 and len(data) >= 5 + struct.unpack("<I", data[:4])[0]:
                length, kind = struct.unpack("<IB", data[:5])
                kinds[kind] = kinds.get(kind, 0) + 1
                data = data[5 + length:]
        writer.join(45)
        sock.close()
        taken = any(kind != 0 for kind in kinds)
        alive = cluster.all_healthy()
        return report("hello-replace", f"frames to the impostor by kind {kinds}; writes after {writes}",
                      "only hellos, writes 200", not taken and writes == [200] * 5 and alive)
    finally:
        cluster.stop()


ROWS = {
    "lp-overflow": lp_overflow,
    "lp-many-segments": lp_many_segments,
    "lp-far-ahead": lp_far_ahead,
    "listens": listens,
    "stranger-join": stranger_join,
    "peer-frames": peer_frames,
    "cluster-ops": cluster_ops,
    "labels": labels,
    "owner-remote": owner_remote,
    "regex": regex,
    "ondisconnect": ondisconnect,
    "increment-overflow": increment_overflow,
    "unlimited-put": unlimited_put,
    "hello-replace": hello_replace,
    "lp-upgrade-buffer": lp_upgrade_buffer,
    "412-leak": leak_412,
}


def main():
    chosen = sys.argv[2:] or list(ROWS)
    unknown = [name for name in chosen if name not in ROWS]
    if unknown:
        raise SystemExit(f"unknown rows {unknown}; rows are {', '.join(ROWS)}")
    results = []
    for name in chosen:
        try:
            results.append(ROWS[name]())
        except (Exception, SystemExit) as error:  # one row's surprise (a node that did not start) fails that row
            reason = " ".join(str(error).split())[:160]
            results.append(report(name, f"the row could not run: {type(error).__name__}: {reason}", "-", False))
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
