// The official JS SDK's runTransaction() under contention (scripts/js-sdk-check): two apps toggle stars on one
// 300-star post with 80 concurrent transactions while a third app listens to it. Every transaction must commit,
// starCount must equal the stars, and the listener must end on the server's value.
// usage: node --experimental-websocket transactions.mjs PORT   (the SDK bundles beside it as .mjs)
import { initializeApp } from './firebase-app.mjs';
import { getDatabase, ref, runTransaction, onValue, get, set } from './firebase-database.mjs';
const port = process.argv[2];
const url = `http://127.0.0.1:${port}?ns=transactions`;
const apps = [0, 1, 2].map(i => initializeApp({ databaseURL: url, projectId: 'demo', apiKey: 'x' }, `a${i}`));
const dbs = apps.map(a => getDatabase(a));
const post = 'posts/p1';
const stars = {};
for (let u = 0; u < 300; u++) stars[`u${u}`] = true;
await set(ref(dbs[0], post), { author: 'ada', starCount: 300, stars });
let latest = null;
onValue(ref(dbs[2], post), snap => { latest = snap.val(); });
const toggles = [];
for (let c = 0; c < 2; c++) {
  for (let i = 0; i < 40; i++) {
    const uid = `u${(c * 97 + i * 7) % 400}`;
    toggles.push(runTransaction(ref(dbs[c], post), p => {
      if (!p) return p;
      p.stars = p.stars || {};
      if (p.stars[uid]) { p.starCount--; delete p.stars[uid]; } else { p.starCount++; p.stars[uid] = true; }
      return p;
    }));
  }
}
const results = await Promise.all(toggles);
const committed = results.filter(r => r.committed).length;
await new Promise(r => setTimeout(r, 500));
const server = (await get(ref(dbs[1], post))).val();
const count = Object.keys(server.stars || {}).length;
const same = JSON.stringify(latest) === JSON.stringify(server);
console.log(JSON.stringify({ committed, starCount: server.starCount, stars: count, listenerMatches: same }));
process.exit(server.starCount === count && same && committed === 80 ? 0 : 1);
