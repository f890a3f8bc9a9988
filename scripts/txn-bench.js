// Contention: `contenders` wire sessions, each listening at one location, run transactions on it following the
// official JS SDK's algorithm (scripts/lib/sdk-transaction.js), in waves: every contender starts one transaction at
// the same moment (as that many app users tapping the star at once), and the next wave starts when all have
// finished and every session has received the result. Waves repeat until `rounds` transactions have committed (a
// round is one commit: in a wave a fair server lets one contender win per round, so the last one of a wave needs as
// many attempts as there are contenders, and no transaction more). Stops early after `seconds`.
// Prints attempts per transaction, aborts, and whether the final value is exact; exits 1 when it is not.
//
// usage: node --experimental-websocket txn-bench.js <port> <contenders> <rounds> [path] [toggle|increment] [seconds]
//   toggle (default, path /posts/p1): the docs' toggleStar on a post {starCount, stars/<uid>}; contender i toggles
//          uid c<i>, so at the end starCount and the stars must both equal the contenders that committed an odd
//          number of times.
//   increment: the value at path goes up by 1 per committed transaction.
'use strict';
const { openWire } = require('./lib/wire-client');
const { firebaseHash } = require('./lib/firebase-hash');
const { openWatchingSession, runTransaction, MAX_TRANSACTION_RETRIES } = require('./lib/sdk-transaction');

const USAGE = 'usage: node --experimental-websocket txn-bench.js <port> <contenders> <rounds> [path] [toggle|increment] [seconds]';
const [portText, contendersText, roundsText, path = '/posts/p1', mode = 'toggle', secondsText = '60'] = process.argv.slice(2);
const [port, contenders, rounds, seconds] = [portText, contendersText, roundsText, secondsText].map(Number);
if (!(port > 0 && contenders > 0 && rounds > 0 && seconds > 0) || !['toggle', 'increment'].includes(mode)) {
  console.error(USAGE);
  process.exit(2);
}

// The docs' toggleStar transaction update for user `uid`.
function toggleStar(uid) {
  return (post) => {
    if (post) {
      if (post.stars && post.stars[uid]) {
        post.starCount--;
        post.stars[uid] = null;
      } else {
        post.starCount++;
        if (!post.stars) post.stars = {};
        post.stars[uid] = true;
      }
    }
    return post;
  };
}

const increment = (value) => (value || 0) + 1;

// Waits until every session's cache holds `value` at the location (the pushes of the last wave have arrived).
async function everySessionHas(value, sessions) {
  const wanted = firebaseHash(value);
  for (let waited = 0; sessions.some((s) => firebaseHash(s.cache.valueAt(path)) !== wanted); waited++) {
    if (waited > 5000) throw new Error(`sessions did not receive the value at ${path} within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

(async () => {
  const setup = await openWire(port);
  const initial = mode === 'toggle' ? { title: 'A hot post', author: 'author', starCount: 0 } : 0;
  await setup.request('p', { p: path, d: initial });
  const sessions = [];
  for (let i = 0; i < contenders; i++) sessions.push(await openWatchingSession(port, path));

  let commits = 0;
  let waves = 0;
  const perContender = new Array(contenders).fill(0);
  const updates = sessions.map((_, i) => (mode === 'toggle' ? toggleStar(`c${i}`) : increment));
  const results = [];
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  while (commits < rounds && process.hrtime.bigint() < deadline) {
    await everySessionHas((await setup.request('g', { p: path, q: {} })).d, sessions);
    waves++;
    const wave = await Promise.all(sessions.map((session, i) => runTransaction(session, path, updates[i])));
    wave.forEach((result, i) => { if (result.committed) { commits++; perContender[i]++; } });
    results.push(...wave);
  }
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;

  const final = (await setup.request('g', { p: path, q: {} })).d;
  let check;
  if (mode === 'toggle') {
    const expected = perContender.map((n, i) => (n % 2 === 1 ? `c${i}` : null)).filter((uid) => uid !== null).sort();
    const stars = Object.keys((final && final.stars) || {}).sort();
    const starCount = final ? final.starCount : null;
    check = { pass: starCount === expected.length && JSON.stringify(stars) === JSON.stringify(expected),
      text: `starCount ${starCount}, stars ${stars.length}, expected ${expected.length}` };
  } else {
    check = { pass: final === commits, text: `value ${final}, expected ${commits}` };
  }
  report(results, commits, waves, elapsed, check);
  process.exit(check.pass ? 0 : 1);
})().catch((error) => { console.error('txn-bench failed:', error); process.exit(1); });

// Prints one summary line and the distribution of attempts per transaction.
function report(results, commits, waves, elapsed, check) {
  const attempts = results.map((r) => r.attempts);
  const max = Math.max(0, ...attempts);
  const mean = attempts.reduce((a, b) => a + b, 0) / Math.max(1, attempts.length);
  const aborts = {};
  for (const r of results) if (!r.committed) aborts[r.reason] = (aborts[r.reason] || 0) + 1;
  const abortCount = Object.values(aborts).reduce((a, b) => a + b, 0);
  const staleReruns = results.reduce((a, r) => a + r.staleReruns, 0);
  const reruns = attempts.reduce((a, n) => a + n, 0) - results.length;
  const histogram = {};
  for (const n of attempts) histogram[n] = (histogram[n] || 0) + 1;
  console.log(`${contenders} contenders, ${mode} at ${path}: ${commits} commits in ${waves} waves, `
    + `${elapsed.toFixed(1)} s (${(commits / elapsed).toFixed(0)} commits/s), ${results.length} transactions`);
  console.log(`  attempts per transaction: max ${max}, mean ${mean.toFixed(2)}; target at most ${contenders} `
    + `(one winner per round) -> ${max <= contenders ? 'PASS' : 'FAIL'}`);
  const capped = contenders > MAX_TRANSACTION_RETRIES
    ? ` (the SDK gives up after ${MAX_TRANSACTION_RETRIES} attempts, so with ${contenders} at once even a fair server `
      + 'leaves some maxretry aborts)' : '';
  console.log(`  aborts: ${abortCount}${abortCount ? ' ' + JSON.stringify(aborts) : ''}${capped}`);
  console.log(`  reruns on the value just refused (the datastale overtook the value that won): ${staleReruns} of `
    + `${reruns} reruns; target 0 -> ${staleReruns === 0 ? 'PASS' : 'FAIL'}`);
  console.log(`  attempts histogram (attempts:transactions): `
    + Object.entries(histogram).map(([n, c]) => `${n}:${c}`).join(' '));
  console.log(`  final count: ${check.text} -> ${check.pass ? 'PASS' : 'FAIL'}`);
}
