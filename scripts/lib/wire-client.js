// A realtime-protocol (wire protocol v5) client for benchmark drivers, over node's WebSocket (node 20 needs
// --experimental-websocket): waits for the handshake, sends data requests with increasing ids, resolves each
// request with its response body `b`, hands pushes to `onPush`, and joins count-prefixed multi-frame messages.
// See the protocol fact sheet, §1.2–1.8.
'use strict';

class WireClient {
  constructor(ws) {
    this.ws = ws;
    this.next = 1;
    this.waiting = new Map();
    // Called with each push's `d` (`{a, b}`), in the order the server sent them.
    this.onPush = null;
  }

  // Sends `{r, a: action, b: body}`; resolves to the response's `b` (`{s, d}`).
  request(action, body) {
    const r = this.next++;
    this.ws.send(JSON.stringify({ t: 'd', d: { r, a: action, b: body } }));
    return new Promise((resolve) => this.waiting.set(r, resolve));
  }

  close() { this.ws.close(); }

  receive(message) {
    if (message.t !== 'd') return;
    const data = message.d;
    if (data.r !== undefined) {
      const resolve = this.waiting.get(data.r);
      this.waiting.delete(data.r);
      if (resolve) resolve(data.b);
    } else if (this.onPush) {
      this.onPush(data);
    }
  }
}

// Opens a session on the node at 127.0.0.1:`port` (namespace `ns`); resolves after the handshake.
function openWire(port, ns = 'bench') {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/.ws?v=5&ns=${ns}`);
    const client = new WireClient(ws);
    let parts = 0;
    let pending = '';
    ws.onerror = (event) => reject(new Error(`WebSocket to port ${port} failed: ${event.message || 'error'}`));
    ws.onclose = () => {
      for (const done of client.waiting.values()) done({ s: 'disconnect', d: 'connection closed' });
      client.waiting.clear();
    };
    ws.onmessage = (event) => {
      const text = event.data;
      if (parts === 0 && text.length <= 6 && /^[0-9]+$/.test(text)) { parts = Number(text); pending = ''; return; }
      let whole = text;
      if (parts > 0) {
        pending += text;
        if (--parts > 0) return;
        whole = pending;
      }
      const message = JSON.parse(whole);
      if (message.t === 'c') { if (message.d.t === 'h') resolve(client); return; }
      client.receive(message);
    };
  });
}

module.exports = { openWire };
