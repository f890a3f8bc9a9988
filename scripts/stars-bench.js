// The docs' star workload on one hot post, from `clients` connections with one star in flight each, for `seconds`.
// Prints one JSON line (scripts/stars-report.js turns them into a table): stars/s, p50/p99 in ms, and the check of
// the stored counts against the stars the load generator saw acknowledged.
//
// usage: node --experimental-websocket stars-bench.js <target> <port[,port…]> <multi|single|noop> [clients] [seconds]
//   Several ports (wire only): the cluster's nodes; connection c goes to port c mod n, as clients spread over a
//   load balancer would.
//   multi:  4 paths over 2 shards in one atomic write: posts/p1/stars/<uid> = true, posts/p1/starCount += 1 and the
//           same under user-posts/author/p1; single: the same 4 paths with the second copy under
//           user-posts/author4/p1, which lives in the same shard as posts/p1 (in namespace "bench"), so the two
//           shapes differ only in how many shards the update spans;
//   noop:   the transport's ceiling, (almost) no database work: rest reads an absent node (`GET /noop.json`,
//           answered `null`); wire sends the stats message (`s`), answered `ok` without touching the tree or
//           the log. A star cannot be answered faster than this, so it bounds what any change behind the front
//           end can reach.
//   target, and the load generator used for it:
//     redis-benchmark  Redis's own C client: one EVAL (SADD + INCR per copy) per star, random uids;
//     redis            the same EVAL from this driver (the wire rows' load generator, to show its own ceiling);
//     rest             wrk (C, 2 threads): PATCH /.json, unique uids;
//     wire             this driver over the realtime protocol: `m` at "/".
//   Checks: this driver (redis, wire) and redis-benchmark finish every star they sent, so the stored starCount must
//   equal the acknowledged stars exactly; wrk abandons up to one star per connection when it stops, so for rest the
//   count may exceed the acknowledged stars by at most `clients`. Each copy's starCount must equal its stars.
'use strict';
const { execFileSync } = require('child_process');
const path = require('path');
const { runClosedLoop } = require('./lib/closed-loop');
const { connectRedis } = require('./lib/redis-client');
const { connectHTTP } = require('./lib/http-client');
const { openWire } = require('./lib/wire-client');

const USAGE = 'usage: node --experimental-websocket stars-bench.js <redis-benchmark|redis|rest|wire> <port[,port…]> <multi|single|noop> [clients] [seconds]';
const TARGETS = ['redis-benchmark', 'redis', 'rest', 'wire'];
const [target, portText, shape, clientsText = '64', secondsText = '10'] = process.argv.slice(2);
const ports = String(portText).split(',').map(Number);
const [clients, seconds] = [clientsText, secondsText].map(Number);
const port = ports[0];
const noop = shape === 'noop';
if (!TARGETS.includes(target) || !['multi', 'single', 'noop'].includes(shape) || (noop && !['rest', 'wire'].includes(target))
  || !ports.every((p) => p > 0) || (ports.length > 1 && target !== 'wire') || !(clients > 0 && seconds > 0)) {
  console.error(USAGE);
  process.exit(2);
}
// REST and wire traffic go to one namespace, so the check reads what was written.
const NAMESPACE = 'bench';
// A credential every REST star presents (scripts/bench-rules.sh: a token under security rules), if any.
const AUTH = process.env.HEARTH_BENCH_AUTH ? `&auth=${process.env.HEARTH_BENCH_AUTH}` : '';
// The copies of the post a star updates.
const copies = shape === 'multi' ? ['posts/p1', 'user-posts/author/p1'] : ['posts/p1', 'user-posts/author4/p1'];
const redisKeys = copies.flatMap((copy) => [`${copy}/stars`, `${copy}/starCount`]);

// The star as one atomic Redis script: SADD the uid to every copy's stars and INCR its count.
const REDIS_STAR = `for i = 1, #KEYS, 2 do
  redis.call('SADD', KEYS[i], ARGV[1])
  redis.call('INCR', KEYS[i + 1])
end
return 1`;

// The update body of one star, written at the root.
function starBody(uid) {
  const increment = { '.sv': { increment: 1 } };
  const body = {};
  for (const copy of copies) {
    body[`${copy}/stars/${uid}`] = true;
    body[`${copy}/starCount`] = increment;
  }
  return body;
}

// Runs redis-benchmark with the star EVAL for about `seconds` (a short run first sizes the request count).
async function runRedisBenchmark() {
  const run = (requests) => {
    const csv = execFileSync('redis-benchmark', ['-h', '127.0.0.1', '-p', String(port), '-c', String(clients),
      '-n', String(requests), '-r', '1000000000', '--csv', 'EVAL', REDIS_STAR, String(redisKeys.length), ...redisKeys,
      'u__rand_int__'], { encoding: 'utf8' });
    const fields = csv.trim().split('\n').pop().split('","').map((field) => field.replace(/"/g, ''));
    const fromEnd = (n) => Number(fields[fields.length - n]);
    return { perSecond: fromEnd(7), p50: fromEnd(4), p99: fromEnd(2) };
  };
  const calibration = run(Math.max(20000, clients * 200));
  const redis = await connectRedis(port);
  await redis.command(['FLUSHALL']);
  const requests = Math.round(calibration.perSecond * seconds);
  const started = process.hrtime.bigint();
  const measured = run(requests);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const counts = [];
  for (const copy of copies) {
    counts.push({ copy, starCount: Number(await redis.command(['GET', `${copy}/starCount`])), stars: null });
  }
  redis.close();
  return { acked: requests, failed: 0, seconds: elapsed, ...measured, driverCPU: null, counts,
    pass: counts.every((c) => c.starCount === requests) };
}

// Runs wrk with scripts/lib/star-rest.lua, then checks the stored counts.
async function runWrk() {
  const request = noop ? [`/noop.json?ns=${NAMESPACE}`]
    : [`/.json?ns=${NAMESPACE}${AUTH}`, JSON.stringify(starBody('UID'))];
  const output = execFileSync('wrk', ['-t2', `-c${clients}`, `-d${seconds}s`, '--latency',
    '-s', path.join(__dirname, 'lib', 'star-rest.lua'), `http://127.0.0.1:${port}`, '--', ...request],
  { encoding: 'utf8' });
  const line = output.split('\n').find((text) => text.startsWith('RESULT '));
  if (!line) throw new Error(`wrk printed no result:\n${output}`);
  const result = JSON.parse(line.slice('RESULT '.length));
  if (noop) return { ...result, driverCPU: null, counts: [], pass: result.failed === 0 };
  const counts = await storedCounts();
  const pass = result.failed === 0 && counts.every((c) => c.starCount === c.stars
    && c.starCount >= result.acked && c.starCount <= result.acked + clients);
  return { ...result, driverCPU: null, counts, pass };
}

// Runs this driver's closed loop over Redis or the wire protocol, then checks the stored counts exactly.
async function runClosedLoopTarget() {
  const workers = [];
  const closers = [];
  for (let c = 0; c < clients; c++) {
    let n = 0;
    const uid = () => `u${c}x${n++}`;
    if (target === 'redis') {
      const redis = await connectRedis(port);
      workers.push(async () => (await redis.command(['EVAL', REDIS_STAR, redisKeys.length, ...redisKeys, uid()])) === 1);
      closers.push(() => redis.close());
    } else {
      const wire = await openWire(ports[c % ports.length], NAMESPACE);
      const stats = { c: { 'sdk.js.bench': 1 } };
      workers.push(noop ? async () => (await wire.request('s', stats)).s === 'ok'
        : async () => (await wire.request('m', { p: '/', d: starBody(uid()) })).s === 'ok');
      closers.push(() => wire.close());
    }
  }
  const result = await runClosedLoop(workers, seconds);
  closers.forEach((close) => close());
  if (noop) return { ...result, counts: [], pass: result.failed === 0 };
  const counts = await storedCounts();
  const pass = result.failed === 0 && counts.every((c) => c.starCount === result.acked && c.stars === result.acked);
  return { ...result, counts, pass };
}

// For every copy: its stored star count and number of stars (read together, in one request per copy).
async function storedCounts() {
  const counts = [];
  if (target === 'redis') {
    const redis = await connectRedis(port);
    for (const copy of copies) {
      counts.push({ copy, starCount: Number(await redis.command(['GET', `${copy}/starCount`])),
        stars: await redis.command(['SCARD', `${copy}/stars`]) });
    }
    redis.close();
    return counts;
  }
  const http = await connectHTTP(port);
  const starCounts = async () => JSON.stringify(await Promise.all(copies.map(async (copy) =>
    (await http.request('GET', `/${copy}/starCount.json?ns=${NAMESPACE}`)).body)));
  // Stars that wrk abandoned may still be being applied: wait until the counts stay put for half a second.
  for (let last = await starCounts(), waited = 0; waited < 20; waited++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await starCounts();
    if (now === last) break;
    last = now;
  }
  for (const copy of copies) {
    const post = JSON.parse((await http.request('GET', `/${copy}.json?ns=${NAMESPACE}`)).body) || {};
    counts.push({ copy, starCount: post.starCount === undefined ? null : post.starCount,
      stars: Object.keys(post.stars || {}).length });
  }
  http.close();
  return counts;
}

(async () => {
  const run = target === 'redis-benchmark' ? runRedisBenchmark : target === 'rest' ? runWrk : runClosedLoopTarget;
  console.log(JSON.stringify({ target, shape, clients, nodes: ports.length, ...(await run()) }));
  process.exit(0);
})().catch((error) => { console.error(`stars-bench ${target} ${shape} failed:`, error); process.exit(1); });
