// Realtime-protocol benchmarks against a running Hearth node (raw protocol, node --experimental-websocket).
// usage: node --experimental-websocket wire-bench.js <port> puts <connections> <putsPerConnection>
//        node --experimental-websocket wire-bench.js <port> named-puts <connections> <putsPerConnection>
//          (the same puts, each naming its origin as Hearth's client does: "o" = client, sequence, settled mark)
//        node --experimental-websocket wire-bench.js <port> fanout <listeners> <writes>
//        node --experimental-websocket wire-bench.js <port> idle <connections> <serverPid>
'use strict';
const { openWire } = require('./lib/wire-client');
const { percentile } = require('./lib/closed-loop');

const [port, mode, a, b] = [+process.argv[2], process.argv[3], +process.argv[4], +process.argv[5]];
const open = () => openWire(port);
(async () => {
  if (mode === 'puts' || mode === 'named-puts') {
    const conns = []; for (let i = 0; i < a; i++) conns.push(await open());
    const run = Date.now().toString(36);
    const start = process.hrtime.bigint();
    await Promise.all(conns.map((c, i) => {
      const ps = [];
      for (let j = 0; j < b; j++) {
        const body = { p: `/puts/c${i}/k${j % 100}`, d: { n: j, s: 'payload' } };
        // Sent all at once, nothing is answered yet: the settled mark stays at the first write.
        if (mode === 'named-puts') body.o = { c: `bench-${run}-${i}`, s: j + 1, a: 1 };
        ps.push(c.request('p', body));
      }
      return Promise.all(ps);
    }));
    const s = Number(process.hrtime.bigint() - start) / 1e9;
    console.log(`${mode}: ${a} connections x ${b} pipelined = ${a * b} acked in ${s.toFixed(2)} s -> ${(a * b / s).toFixed(0)} msgs/s`);
  } else if (mode === 'fanout') {
    const listeners = [];
    for (let i = 0; i < a; i++) { const c = await open(); await c.request('q', { p: '/hot', h: '' }); listeners.push(c); }
    const writer = await open(); const lat = [];
    for (let w = 0; w < b; w++) {
      let pending = a;
      const done = new Promise(res => listeners.forEach(c => c.onPush = (d) => {
        if (d.b.d && d.b.d.w === w && --pending === 0) res();
      }));
      const t0 = process.hrtime.bigint();
      await writer.request('p', { p: '/hot', d: { w } });
      await done; lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    lat.sort((x, y) => x - y);
    console.log(`fanout: write -> ${a} listeners received, ${b} writes: p50 ${percentile(lat, 0.5).toFixed(1)} ms, p99 ${percentile(lat, 0.99).toFixed(1)} ms`);
  } else if (mode === 'idle') {
    const fs = require('fs'); const rss = () => +/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${b}/status`, 'utf8'))[1];
    await new Promise(r => setTimeout(r, 500)); const before = rss(); const conns = [];
    for (let i = 0; i < a; i++) { conns.push(await open()); }
    await new Promise(r => setTimeout(r, 2000)); const after = rss();
    console.log(`idle: ${a} WebSocket sessions, server RSS ${before} KiB -> ${after} KiB, ${((after - before) * 1024 / a).toFixed(0)} bytes/connection`);
  }
  process.exit(0);
})().catch(e => { console.error('FAILED', e); process.exit(1); });
