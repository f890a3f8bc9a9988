"""Server CPU over exactly a load generator's load window: runs COMMAND, watches what it prints for the marks of its
window, and reads the user + system CPU ticks of the server processes (/proc/<pid>/stat, every thread) the moment
each mark arrives, and also around the whole command (its set-up and checks included). For scripts/bench-cpu.

usage: cpu_window.py --pids PID[,PID…] --window stars|closed-loop|command|etcd-perf [--metrics URL]
                     --log FILE -- COMMAND [ARGS…]

Windows, and the operations counted in them:
  stars       `hearth bench stars` with line-buffered output (`stdbuf -oL`): from its progress line `1/N s` to its
              line `N/N s`, the load's steady seconds 2..N; operations: the sum of those lines' ops/s;
  closed-loop scripts/lib/closed-loop.js with CLOSED_LOOP_MARKS=1 (it prints `closed-loop: load started` and
              `closed-loop: load ended` on stderr); operations: the command's own count (the caller reads its output);
  command     the command's whole life (wrk: it connects and stops within its --duration); operations: the caller's;
  etcd-perf   `etcdctl check perf`: from its progress bar's `1 / 60` to `60 / 60`, without the key-space check before
              and the delete after; operations: the rise of `etcd_mvcc_put_total` at --metrics over the window.
Prints one JSON line: exitCode, windowSeconds, windowCPUSeconds, windowOperations (null when the caller counts),
wholeSeconds, wholeCPUSeconds, wholeOperations (etcd-perf's puts over the whole command, else null), and a note when
the marks were not both seen (then the window figures are null).
The command's stdout and stderr go to --log."""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")
STARS_PROGRESS = re.compile(r"^\r?(?:\[[#-]*\] )?(\d+)/(\d+) s:? +(\d+) ops/s")
ETCD_PROGRESS = re.compile(r"(\d+) / (\d+)")
PUTS = re.compile(r"^etcd_mvcc_put_total (\d+(?:\.\d+)?(?:e\+\d+)?)$", re.MULTILINE)


def cpu_seconds(pids):
    """The user + system CPU time (s) the processes have used so far, summed over them."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            # The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / TICKS_PER_SECOND


def puts_applied(url):
    """etcd's count of puts its store applied, from its Prometheus metrics at `url`."""
    with urllib.request.urlopen(url, timeout=10) as answer:
        found = PUTS.search(answer.read().decode())
    if not found:
        raise RuntimeError(f"{url} shows no etcd_mvcc_put_total")
    return float(found.group(1))


class Window:
    """The window's two marks as they arrive: the time, the servers' CPU and the operations counted so far."""

    def __init__(self, pids, metrics):
        self.pids = pids
        self.metrics = metrics
        self.start = None
        self.end = None
        self.operations = 0
        self.lock = threading.Lock()

    def mark(self, which):
        """Takes mark `which` ("start" or "end") now, unless it is taken already."""
        with self.lock:
            if getattr(self, which) is not None:
                return
            puts = puts_applied(self.metrics) if self.metrics else None
            setattr(self, which, (time.monotonic(), cpu_seconds(self.pids), puts))


def watch(stream, log, kind, window):
    """Copies `stream` to `log`, taking the window's marks as `kind` prints them (lines end in \\n or \\r)."""
    pending = b""
    while True:
        chunk = os.read(stream.fileno(), 65536)
        if not chunk:
            return
        log.write(chunk)
        pending += chunk
        *lines, pending = re.split(rb"[\r\n]", pending)
        for raw in lines:
            line = raw.decode(errors="replace")
            if kind == "stars" and (found := STARS_PROGRESS.match(line)):
                second, total, operations = (int(group) for group in found.groups())
                if second == 1:
                    window.mark("start")
                elif window.start is not None and window.end is None:
                    window.operations += operations
                if second == total:
                    window.mark("end")
            elif kind == "closed-loop" and line.startswith("closed-loop: load started"):
                window.mark("start")
            elif kind == "closed-loop" and line.startswith("closed-loop: load ended"):
                window.mark("end")
            elif kind == "etcd-perf" and (found := ETCD_PROGRESS.search(line)):
                done, total = int(found.group(1)), int(found.group(2))
                if done >= 1:
                    window.mark("start")
                if done == total:
                    window.mark("end")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pids", required=True, help="the server processes, comma-separated")
    parser.add_argument("--window", required=True, choices=["stars", "closed-loop", "command", "etcd-perf"])
    parser.add_argument("--metrics", help="etcd's /metrics URL (etcd-perf)")
    parser.add_argument("--log", required=True, help="where the command's output goes")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    command = arguments.command[1:] if arguments.command[:1] == ["--"] else arguments.command
    if not command or (arguments.window == "etcd-perf") != bool(arguments.metrics):
        parser.error("name a command after --, and --metrics exactly with --window etcd-perf")
    pids = [int(pid) for pid in arguments.pids.split(",")]
    window = Window(pids, arguments.metrics)
    whole_start = (time.monotonic(), cpu_seconds(pids), puts_applied(arguments.metrics) if arguments.metrics else None)
    with open(arguments.log, "wb") as log:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if arguments.window == "command":
            window.mark("start")
        watchers = [threading.Thread(target=watch, args=(stream, log, arguments.window, window))
                    for stream in (process.stdout, process.stderr)]
        for watcher in watchers:
            watcher.start()
        code = process.wait()
        if arguments.window == "command":
            window.mark("end")
        for watcher in watchers:
            watcher.join()
    whole_end = (time.monotonic(), cpu_seconds(pids), puts_applied(arguments.metrics) if arguments.metrics else None)
    result = {"exitCode": code, "windowSeconds": None, "windowCPUSeconds": None, "windowOperations": None,
              "wholeSeconds": whole_end[0] - whole_start[0], "wholeCPUSeconds": whole_end[1] - whole_start[1],
              "wholeOperations": whole_end[2] - whole_start[2] if arguments.metrics else None}
    if window.start is None or window.end is None:
        result["note"] = f"the command did not print both marks of its {arguments.window} window (see its log)"
    else:
        result["windowSeconds"] = window.end[0] - window.start[0]
        result["windowCPUSeconds"] = window.end[1] - window.start[1]
        if arguments.window == "stars":
            result["windowOperations"] = window.operations
        elif arguments.window == "etcd-perf":
            result["windowOperations"] = window.end[2] - window.start[2]
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
