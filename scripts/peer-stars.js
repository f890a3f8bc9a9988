// The peer of `hearth bench stars`: the same star workload against Redis, so each Hearth figure is read as a ratio
// to Redis measured minutes apart on the same machine (scripts/bench-peer runs it).
//
// usage: node peer-stars.js <redis port> <increment|transaction> <clients> <seconds> <posts> <users> <hot 0|1>
//   Users are shared out among the clients as in hearth bench stars (user % clients == client), so no two clients
//   toggle one star and each knows whether its stars are set.
//   increment:   the whole star (or un-star) as one atomic EVAL: SET (or DEL) posts/<p>/stars/<u> and INCRBY
//                posts/<p>/starCount by ±1, and the same under user-posts/<author>/<p>;
//   transaction: the docs' toggle as Redis's optimistic transaction on the post, a hash: WATCH it, read the
//                user's star, MULTI, HSET (or HDEL) the star and HINCRBY starCount, EXEC; a nil EXEC (the post
//                changed) runs it again, up to 25 attempts as the SDKs allow.
// Prints one JSON line: operations (acknowledged), opsPerSecond, latencyMs {p50, p99}, gaveUp, invariantsOk (every
// post's count equals its stars, each copy equals the post, the stars total what the acknowledged toggles say).
'use strict';
const { runClosedLoop } = require('./lib/closed-loop');
const { connectRedis } = require('./lib/redis-client');

const USAGE = 'usage: node peer-stars.js <redis port> <increment|transaction> <clients> <seconds> <posts> <users> <hot 0|1>';
const [portText, mode, clientsText, secondsText, postsText, usersText, hotText] = process.argv.slice(2);
const [port, clients, seconds, posts, users] = [portText, clientsText, secondsText, postsText, usersText].map(Number);
const hot = hotText === '1';
if (!['increment', 'transaction'].includes(mode) || !(port > 0 && clients > 0 && seconds > 0 && posts > 0 && users >= clients)) {
  console.error(USAGE);
  process.exit(2);
}
const run = `r${Date.now().toString(36)}`;
const postKey = (p) => `posts/${run}-p${p}`;
const copyKey = (p) => `user-posts/${run}-a${p % 8}/${run}-p${p}`;
const MAX_ATTEMPTS = 25;

const STAR = `for i = 1, #KEYS, 2 do
  if ARGV[1] == '1' then redis.call('SET', KEYS[i], 1) else redis.call('DEL', KEYS[i]) end
  redis.call('INCRBY', KEYS[i + 1], ARGV[1])
end
return 1`;

(async () => {
  const starred = new Set();
  let gaveUp = 0;
  let retries = 0;
  const connections = [];
  const workers = [];
  for (let c = 0; c < clients; c++) {
    const redis = await connectRedis(port);
    connections.push(redis);
    const own = [];
    for (let u = c; u < users; u += clients) own.push(u);
    const pick = () => {
      const p = hot ? 0 : Math.floor(Math.random() * posts);
      const u = own[Math.floor(Math.random() * own.length)];
      return { p, u, starring: !starred.has(`${p}/${u}`) };
    };
    workers.push(async () => {
      const { p, u, starring } = pick();
      if (mode === 'increment') {
        const keys = [`${postKey(p)}/stars/u${u}`, `${postKey(p)}/starCount`, `${copyKey(p)}/stars/u${u}`, `${copyKey(p)}/starCount`];
        await redis.command(['EVAL', STAR, keys.length, ...keys, starring ? '1' : '-1']);
      } else {
        for (let attempt = 1; ; attempt++) {
          await redis.command(['WATCH', postKey(p)]);
          const present = (await redis.command(['HEXISTS', postKey(p), `star:u${u}`])) === 1;
          await redis.command(['MULTI']);
          await redis.command(present ? ['HDEL', postKey(p), `star:u${u}`] : ['HSET', postKey(p), `star:u${u}`, '1']);
          await redis.command(['HINCRBY', postKey(p), 'starCount', present ? '-1' : '1']);
          if ((await redis.command(['EXEC'])) !== null) break;
          if (attempt === MAX_ATTEMPTS) { gaveUp++; return false; }
          retries++;
        }
      }
      if (starring) starred.add(`${p}/${u}`); else starred.delete(`${p}/${u}`);
      return true;
    });
  }
  const result = await runClosedLoop(workers, seconds);
  const check = connections[0];
  let ok = true;
  let total = 0;
  for (let p = 0; p < posts; p++) {
    if (mode === 'increment') {
      for (const base of [postKey(p), copyKey(p)]) {
        const count = Number(await check.command(['GET', `${base}/starCount`]) || 0);
        const stars = (await check.command(['KEYS', `${base}/stars/*`])).length;
        if (count !== stars) ok = false;
        if (base === postKey(p)) total += stars;
      }
    } else {
      const fields = await check.command(['HGETALL', postKey(p)]);
      let count = 0;
      let stars = 0;
      for (let i = 0; i < fields.length; i += 2) {
        if (fields[i] === 'starCount') count = Number(fields[i + 1]); else stars++;
      }
      if (count !== stars) ok = false;
      total += stars;
    }
  }
  if (total !== starred.size) ok = false;
  connections.forEach((redis) => redis.close());
  console.log(JSON.stringify({
    target: 'redis', mode, hot, clients, operations: result.acked, opsPerSecond: result.perSecond,
    latencyMs: { p50: result.p50, p99: result.p99 }, retries, gaveUp, invariantsOk: ok,
  }));
  process.exit(ok ? 0 : 1);
})().catch((error) => { console.error('peer-stars failed:', error); process.exit(1); });
