// The docs' star fan-out through the official JS SDK's update() (scripts/js-sdk-check): two apps send 300 four-path
// updates (posts/$p and user-posts/ada/$p, stars and starCount with increment(1)) over three posts while a third app
// listens to each post and to the root. No event may show half an update, and every count must be exact.
// usage: node --experimental-websocket updates.mjs PORT   (the SDK bundles beside it as .mjs)
import { initializeApp } from './firebase-app.mjs';
import { getDatabase, ref, update, onValue, get, increment } from './firebase-database.mjs';
const port = process.argv[2];
const url = `http://127.0.0.1:${port}?ns=updates`;
const apps = [0, 1, 2].map(i => initializeApp({ databaseURL: url, projectId: 'demo', apiKey: 'x' }, `a${i}`));
const dbs = apps.map(a => getDatabase(a));
const posts = ['p1', 'p2', 'p3'];
let torn = 0, events = 0;
const views = {};
for (const p of posts) {
  // Every event of a post must show as many stars as its starCount.
  onValue(ref(dbs[2], `posts/${p}`), snap => {
    const v = snap.val(); events++;
    if (v && v.stars && Object.keys(v.stars).length !== v.starCount) torn++;
    views[p] = v;
  });
}
// Every event of the root must show each post equal to its user-posts copy (the update is atomic).
let rootTorn = 0;
onValue(ref(dbs[2], '/'), snap => {
  const v = snap.val() || {};
  for (const p of posts) {
    const a = JSON.stringify((v.posts || {})[p] || null);
    const b = JSON.stringify(((v['user-posts'] || {}).ada || {})[p] || null);
    if (a !== b) rootTorn++;
  }
});
const writes = [];
const starred = {};
for (let c = 0; c < 2; c++) {
  for (let i = 0; i < 150; i++) {
    const p = posts[i % 3];
    const uid = `u${c}_${i}`;
    const updates = {};
    updates[`posts/${p}/stars/${uid}`] = true;
    updates[`posts/${p}/starCount`] = increment(1);
    updates[`user-posts/ada/${p}/stars/${uid}`] = true;
    updates[`user-posts/ada/${p}/starCount`] = increment(1);
    writes.push(update(ref(dbs[c]), updates));
    starred[p] = (starred[p] || 0) + 1;
  }
}
await Promise.all(writes);
await new Promise(r => setTimeout(r, 500));
let ok = torn === 0 && rootTorn === 0;
for (const p of posts) {
  const server = (await get(ref(dbs[1], `posts/${p}`))).val();
  const copy = (await get(ref(dbs[1], `user-posts/ada/${p}`))).val();
  const same = JSON.stringify(server) === JSON.stringify(copy) && JSON.stringify(views[p]) === JSON.stringify(server);
  ok = ok && same && server.starCount === starred[p] && Object.keys(server.stars).length === starred[p];
  console.log(JSON.stringify({ post: p, starCount: server.starCount, expected: starred[p], copiesEqual: same }));
}
console.log(JSON.stringify({ events, torn, rootTorn, ok }));
process.exit(ok ? 0 : 1);
