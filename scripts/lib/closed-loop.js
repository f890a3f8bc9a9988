// A closed-loop load generator: `clients` workers, each with exactly one request in flight, for `seconds`; then
// every worker finishes its last request (nothing is abandoned), so the caller knows exactly what was acknowledged.
// With CLOSED_LOOP_MARKS set it writes `closed-loop: load started` and `closed-loop: load ended` to stderr at those
// moments, so that scripts/lib/cpu_window.py reads a server's CPU over exactly the load (scripts/bench-cpu).
'use strict';

// Writes `closed-loop: load <what>` to stderr when the caller asked for the load's marks.
function mark(what) {
  if (process.env.CLOSED_LOOP_MARKS) process.stderr.write(`closed-loop: load ${what}\n`);
}

// Runs `workers` (async functions returning true when the request was acknowledged) until the deadline.
async function runClosedLoop(workers, seconds) {
  const latencies = [];
  let acked = 0;
  let failed = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  const cpuBefore = process.cpuUsage();
  mark('started');
  await Promise.all(workers.map(async (work) => {
    while (process.hrtime.bigint() < deadline) {
      const t0 = process.hrtime.bigint();
      const ok = await work();
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (ok) acked++; else failed++;
    }
  }));
  mark('ended');
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
