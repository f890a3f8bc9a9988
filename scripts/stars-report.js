// Turns the JSON lines of scripts/stars-bench.js into issue 7's star table (Markdown, ready for docs/benchmarks.md)
// and the verdict on each target. The ratio to Redis divides by the better of the two Redis figures (redis-benchmark,
// Redis's own C client, and the node driver): on a shared machine noise only ever lowers a figure, so the better
// one is the closer estimate of what Redis can do. The wire rows also get their ratio to the Redis figure from the
// same node driver.
// Exits 1 when a count check failed (a lost or invented star is a bug, whatever the speed); a missed speed target is
// reported, not a failure.
// usage: node stars-report.js <results.jsonl>
'use strict';
const fs = require('fs');

const file = process.argv[2];
if (!file) {
  console.error('usage: node stars-report.js <results.jsonl>');
  process.exit(2);
}
const runs = fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
const find = (target, shape) => runs.find((r) => r.target === target && r.shape === shape);
const LABELS = {
  'redis-benchmark multi': 'Redis: one `EVAL` (SADD + INCR per copy), AOF everysec; redis-benchmark',
  'redis multi': 'Redis: the same `EVAL` from the node driver',
  'rest multi': 'REST: one `PATCH /.json`, 4 paths over 2 shards; wrk',
  'rest single': 'REST: the same `PATCH /.json`, 4 paths in 1 shard; wrk',
  'wire multi': 'wire: one `m` at `/`, 4 paths over 2 shards; node driver',
  'wire single': 'wire: the same `m` at `/`, 4 paths in 1 shard; node driver',
  'rest noop': 'REST ceiling: `GET` of an absent node, no write; wrk',
  'wire noop': 'wire ceiling: the stats message `s`, no database work; node driver',
};
const redisSameDriver = find('redis', 'multi');
const redis = [find('redis-benchmark', 'multi'), redisSameDriver].filter(Boolean)
  .reduce((best, run) => (best && best.perSecond >= run.perSecond ? best : run), null);
const number = (value, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits,
  minimumFractionDigits: digits });
const ratio = (value) => `${number(value, 2)}×`;

function checkText(run) {
  const verdict = run.pass ? 'PASS' : 'FAIL';
  if (run.target === 'redis-benchmark') return `${verdict}: starCount = ${number(run.acked)} EVALs`;
  if (run.shape === 'noop') return `${verdict}: ${number(run.acked)} answered, ${run.failed} failed (nothing stored)`;
  const copies = run.counts.map((c) => `${c.starCount}/${c.stars}`).join(', ');
  const failed = run.failed ? `, ${run.failed} failed` : '';
  return `${verdict}: ${number(run.acked)} acked${failed}; starCount/stars ${copies}`;
}

const clients = runs[0] ? runs[0].clients : 0;
console.log(`\n${clients} connections, one star in flight each; hearth --fsync batch; × Redis = stars/s ÷ the better `
  + 'Redis EVALs/s figure; driver CPU = cores the node driver used\n');
console.log('| phase | stars/s | p50 | p99 | × Redis | driver CPU | count check (stored starCount/stars per copy) |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const run of runs) {
  const label = LABELS[`${run.target} ${run.shape}`] || `${run.target} ${run.shape}`;
  const times = redis ? ratio(run.perSecond / redis.perSecond) : '';
  const cpu = run.driverCPU === null ? '' : number(run.driverCPU, 2);
  console.log(`| ${label} | ${number(run.perSecond)} | ${number(run.p50, 1)} ms | ${number(run.p99, 1)} ms | `
    + `${times} | ${cpu} | ${checkText(run)} |`);
}

console.log('\nTargets (issue 7):');
const verdict = (met) => (met ? 'met' : 'NOT met');
for (const [target, goal] of [['rest', 0.6], ['wire', 1.0]]) {
  const run = find(target, 'multi');
  if (!run || !redis) continue;
  const value = run.perSecond / redis.perSecond;
  const same = target === 'wire' && redisSameDriver
    ? ` (${ratio(run.perSecond / redisSameDriver.perSecond)} of Redis from the same node driver)` : '';
  console.log(`  ${target} 4-path star >= ${number(goal, 1)}× Redis: ${ratio(value)}${same} -> ${verdict(value >= goal)}`);
  const ceiling = find(target, 'noop');
  if (ceiling) {
    console.log(`    its transport's ceiling (a no-op round trip) is ${ratio(ceiling.perSecond / redis.perSecond)} Redis; `
      + `the star runs at ${number(100 * run.perSecond / ceiling.perSecond)} % of it`);
  }
}
for (const target of ['rest', 'wire']) {
  const multi = find(target, 'multi');
  const single = find(target, 'single');
  if (!multi || !single) continue;
  const cost = single.perSecond / multi.perSecond;
  console.log(`  ${target} multi-shard star costs <= 1.5× a single-shard one: ${ratio(cost)} `
    + `(single ÷ multi stars/s) -> ${verdict(cost <= 1.5)}`);
}
const failed = runs.filter((r) => !r.pass);
console.log(`  counts exact in every phase: ${failed.length === 0 ? 'PASS'
  : `FAIL (${failed.map((r) => `${r.target} ${r.shape}`).join(', ')})`}`);
process.exit(failed.length === 0 ? 0 : 1);
