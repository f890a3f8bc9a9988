"""The client side of Hearth's realtime protocol at the socket level, for benchmark and hostile-client scripts:
open a WebSocket at /.ws and send masked text frames. Nothing is parsed; callers count what they read."""
import base64
import os
import socket


def open_websocket(port, namespace="default", receive_buffer=None, session=None):
    """A connected, upgraded socket on 127.0.0.1:port (blocking), with `receive_buffer` as SO_RCVBUF if given; with
    `session`, the WebSocket a long-polling session of that id upgrades to (`s=`)."""
    sock = socket.socket()
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", port))
    sock.settimeout(30)
    key = base64.b64encode(os.urandom(16)).decode()
    upgrade = f"&s={session}" if session else ""
    sock.sendall((f"GET /.ws?v=5&ns={namespace}{upgrade} HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            raise ConnectionError("the server closed the connection during the WebSocket handshake")
        data += chunk
    return sock


def text_frame(text):
    """One masked WebSocket text frame, as a client sends it (masked as one big integer: fast for megabytes too)."""
    payload = text.encode()
    mask = os.urandom(4)
    if len(payload) < 126:
        header = bytes([0x81, 0x80 | len(payload)])
    elif len(payload) < 1 << 16:
        header = bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big")
    else:
        header = bytes([0x81, 0x80 | 127]) + len(payload).to_bytes(8, "big")
    keys = (mask * (len(payload) // 4 + 1))[:len(payload)]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(keys, "big")).to_bytes(len(payload), "big")
    return header + mask + masked
