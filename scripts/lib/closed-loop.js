// A closed-loop load generator: `clients` workers, each with exactly one request in flight, for `seconds`; then
// every worker finishes its last request (nothing is abandoned), so the caller knows exactly what was acknowledged.
'use strict';

// Runs `workers` (async functions returning true when the request was acknowledged) until the deadline.
async function runClosedLoop(workers, seconds) {
  const latencies = [];
  let acked = 0;
  let failed = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  const cpuBefore = process.cpuUsage();
  await Promise.all(workers.map(async (work) => {
    while (process.hrtime.bigint() < deadline) {
      const t0 = process.hrtime.bigint();
      const ok = await work();
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (ok) acked++; else failed++;
    }
  }));
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  return {
    acked, failed, seconds: elapsed, perSecond: acked / elapsed,
    p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99),
    driverCPU: (cpu.user + cpu.system) / 1e6 / elapsed,
  };
}

// The value at fraction `p` of sorted `values` (0 when empty).
function percentile(values, p) {
  if (values.length === 0) return 0;
  return values[Math.min(values.length - 1, Math.floor(p * values.length))];
}

module.exports = { runClosedLoop, percentile };
