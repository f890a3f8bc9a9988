// A minimal keep-alive HTTP/1.1 client over one TCP connection, for load generators: requests on a connection are
// answered in order, so responses resolve a FIFO. Understands Content-Length and chunked bodies.
'use strict';
const net = require('net');

// Connects to 127.0.0.1:`port`; resolves to `{ request(method, target, body?) → Promise<{status, body}>, close() }`.
function connectHTTP(port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setNoDelay(true);
    const waiting = [];
    let buffer = Buffer.alloc(0);
    socket.on('error', (error) => { reject(error); for (const w of waiting.splice(0)) w.reject(error); });
    socket.on('close', () => {
      for (const w of waiting.splice(0)) w.reject(new Error('connection closed by the server'));
    });
    socket.on('data', (chunk) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      for (;;) {
        const parsed = parseResponse(buffer);
        if (parsed === null) break;
        buffer = buffer.subarray(parsed.end);
        waiting.shift().resolve({ status: parsed.status, body: parsed.body });
      }
    });
    socket.on('connect', () => resolve({
      request(method, target, body) {
        const payload = body === undefined ? '' : body;
        socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`
          + `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`);
        return new Promise((res, rej) => waiting.push({ resolve: res, reject: rej }));
      },
      close() { socket.destroy(); },
    }));
  });
}

// Parses one response from the start of `buffer`; null when it is not complete yet.
function parseResponse(buffer) {
  const headEnd = buffer.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const lines = buffer.toString('latin1', 0, headEnd).split('\r\n');
  const status = Number(lines[0].split(' ')[1]);
  const headers = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const bodyStart = headEnd + 4;
  if ((headers['transfer-encoding'] || '').toLowerCase() === 'chunked') return parseChunked(buffer, bodyStart, status);
  const length = Number(headers['content-length'] || 0);
  if (buffer.length < bodyStart + length) return null;
  return { status, body: buffer.toString('utf8', bodyStart, bodyStart + length), end: bodyStart + length };
}

// Joins a chunked body that starts at `offset`; null when its last chunk has not arrived.
function parseChunked(buffer, offset, status) {
  const parts = [];
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', offset);
    if (lineEnd < 0) return null;
    const size = parseInt(buffer.toString('latin1', offset, lineEnd), 16);
    if (buffer.length < lineEnd + 2 + size + 2) return null;
    if (size === 0) return { status, body: parts.join(''), end: lineEnd + 4 };
    parts.push(buffer.toString('utf8', lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}

module.exports = { connectHTTP };
