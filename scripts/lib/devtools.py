"""A small Chrome DevTools Protocol client over the standard library: starts headless Chromium, opens a page target
and sends commands over its WebSocket, keeping every event for the caller to inspect (for scripts/console-check)."""
import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request

from realtime_socket import text_frame


class DevToolsError(Exception):
    """The browser answered a command with an error, or did not answer in time."""


class Browser:
    """Headless Chromium with a throwaway profile; `page()` opens a new tab to drive."""

    def __init__(self, binary="chromium", width=1200, height=860):
        self.profile = tempfile.mkdtemp(prefix="console-check-chromium-")
        self.process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--metrics-recording-only", "--mute-audio", "--hide-scrollbars",
             f"--window-size={width},{height}", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        self.port = None
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            match = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if match:
                self.port = int(match.group(1))
                break
        if self.port is None:
            self.close()
            raise DevToolsError("chromium did not open its DevTools port")

    def page(self):
        """A new tab, attached."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/json/new?about:blank", method="PUT")
        with urllib.request.urlopen(request, timeout=10) as response:
            target = json.load(response)
        return Page(target["webSocketDebuggerUrl"])

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    """One tab's DevTools session: `call` sends a command and waits for its answer; events are kept in `events`."""

    def __init__(self, url):
        match = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        self.sock = socket.create_connection((match.group(1), int(match.group(2))), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {match.group(3)} HTTP/1.1\r\nHost: {match.group(1)}:{match.group(2)}\r\n"
                           f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise DevToolsError("the DevTools WebSocket closed during its handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise DevToolsError(f"DevTools refused the WebSocket: {head[:200]!r}")
        self.next_id = 0
        self.events = []

    def _read_exactly(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise DevToolsError("the DevTools WebSocket closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _message(self):
        """The next whole text message (fragments joined; pings answered)."""
        parts = []
        while True:
            first, second = self._read_exactly(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read_exactly(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read_exactly(8))[0]
            payload = self._read_exactly(length)
            opcode = first & 0x0F
            if opcode == 0x9:
                self.sock.sendall(bytes([0x8A, 0x80]) + os.urandom(4))
                continue
            if opcode == 0x8:
                raise DevToolsError("the DevTools WebSocket closed")
            parts.append(payload)
            if first & 0x80:
                return json.loads(b"".join(parts))

    def call(self, method, **params):
        """Sends a command and returns its result; events that arrive meanwhile are kept."""
        self.next_id += 1
        ident = self.next_id
        self.sock.sendall(text_frame(json.dumps({"id": ident, "method": method, "params": params})))
        while True:
            message = self._message()
            if message.get("id") == ident:
                if "error" in message:
                    raise DevToolsError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise DevToolsError(f"{expression}: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait_for(self, expression, seconds, what):
        """Seconds until `expression` is truthy in the page (an exception counts as not yet, as while the page is
        still loading); raises naming `what` if it is not within `seconds`."""
        start = time.monotonic()
        last = None
        while True:
            try:
                if self.evaluate(f"!!({expression})"):
                    return time.monotonic() - start
            except DevToolsError as error:
                last = error
            if time.monotonic() - start > seconds:
                try:
                    shown = self.evaluate("document.body ? document.body.innerText.slice(0, 400) : ''")
                except DevToolsError:
                    shown = "?"
                raise DevToolsError(f"not within {seconds} s: {what}" + (f" ({last})" if last else "")
                                    + f"; the page shows: {shown!r}")
            time.sleep(0.05)

    def press(self, key, code):
        """Presses and releases a key (`key` as KeyboardEvent.key, `code` its Windows virtual key code)."""
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def screenshot(self, path):
        """Saves the page as a PNG."""
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def close(self):
        self.sock.close()
