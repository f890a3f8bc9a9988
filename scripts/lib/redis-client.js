// A minimal Redis client (RESP2 over one TCP connection): commands are answered in order, so replies resolve a FIFO.
'use strict';
const net = require('net');

// Connects to Redis on 127.0.0.1:`port`; resolves to `{ command(args) → Promise<reply>, close() }`.
function connectRedis(port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setNoDelay(true);
    const waiting = [];
    let buffer = Buffer.alloc(0);
    socket.on('error', (error) => { reject(error); for (const w of waiting.splice(0)) w.reject(error); });
    socket.on('data', (chunk) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      for (;;) {
        const parsed = parseReply(buffer, 0);
        if (parsed === null) break;
        buffer = buffer.subarray(parsed.end);
        const w = waiting.shift();
        if (parsed.value instanceof Error) w.reject(parsed.value); else w.resolve(parsed.value);
      }
    });
    socket.on('connect', () => resolve({
      command(args) {
        let text = `*${args.length}\r\n`;
        for (const arg of args) text += `$${Buffer.byteLength(String(arg))}\r\n${arg}\r\n`;
        socket.write(text);
        return new Promise((res, rej) => waiting.push({ resolve: res, reject: rej }));
      },
      close() { socket.destroy(); },
    }));
  });
}

// Parses one RESP2 reply at `offset`; null when `buffer` does not hold all of it yet.
function parseReply(buffer, offset) {
  const lineEnd = buffer.indexOf('\r\n', offset);
  if (lineEnd < 0) return null;
  const kind = String.fromCharCode(buffer[offset]);
  const line = buffer.toString('utf8', offset + 1, lineEnd);
  const next = lineEnd + 2;
  switch (kind) {
    case '+': return { value: line, end: next };
    case '-': return { value: new Error(line), end: next };
    case ':': return { value: Number(line), end: next };
    case '$': {
      const length = Number(line);
      if (length < 0) return { value: null, end: next };
      if (buffer.length < next + length + 2) return null;
      return { value: buffer.toString('utf8', next, next + length), end: next + length + 2 };
    }
    case '*': {
      const count = Number(line);
      const items = [];
      let end = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, end);
        if (item === null) return null;
        items.push(item.value);
        end = item.end;
      }
      return { value: count < 0 ? null : items, end };
    }
    default: throw new Error(`unexpected RESP reply type ${JSON.stringify(kind)}`);
  }
}

module.exports = { connectRedis };
