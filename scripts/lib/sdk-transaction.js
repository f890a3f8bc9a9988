// The official JS SDK's transaction algorithm over a raw wire session (firebase-js-sdk
// packages/database/src/core/Repo.ts: repoStartTransaction, repoSendTransactionQueue, repoRerunTransactionQueue),
// for one transaction at a time per session:
//   1. run the update function on the locally cached value at the location (the SDK keeps a listener there);
//   2. send `p` with `h` = the Firebase hash of that cached value (each send counts one attempt);
//   3. on `ok` the transaction is committed; on `datastale` rerun the update at once on whatever the cache holds by
//      then (the SDK does not wait for a push) and send again; after 25 attempts give up with `maxretry`;
//      any other status aborts with that status; an update function returning undefined aborts with `nodata`.
'use strict';
const { firebaseHash } = require('./firebase-hash');
const { ServerCache, normalize } = require('./server-cache');
const { openWire } = require('./wire-client');

const MAX_TRANSACTION_RETRIES = 25;

// Opens a session that listens at `path` (as an app showing that data does) and caches what it receives.
async function openWatchingSession(port, path, ns) {
  const wire = await openWire(port, ns);
  const cache = new ServerCache();
  wire.onPush = (push) => cache.apply(push);
  const answer = await wire.request('q', { p: path, h: '' });
  if (answer.s !== 'ok') throw new Error(`listen at ${path} refused: ${answer.s} ${answer.d}`);
  return { wire, cache };
}

// Runs one transaction; resolves to `{committed, attempts, reason, staleReruns}`. `staleReruns` counts reruns on
// a cached value whose hash is still the one the server just refused: the `datastale` overtook the value that won.
async function runTransaction({ wire, cache }, path, update) {
  let hash = firebaseHash(cache.valueAt(path));
  let output = update(cache.valueAt(path));
  let attempts = 0;
  let staleReruns = 0;
  for (;;) {
    if (output === undefined) return { committed: false, attempts, reason: 'nodata', staleReruns };
    attempts++;
    const answer = await wire.request('p', { p: path, d: normalize(output), h: hash });
    if (answer.s === 'ok') return { committed: true, attempts, reason: null, staleReruns };
    if (answer.s !== 'datastale') return { committed: false, attempts, reason: answer.s, staleReruns };
    if (attempts >= MAX_TRANSACTION_RETRIES) return { committed: false, attempts, reason: 'maxretry', staleReruns };
    const refused = hash;
    hash = firebaseHash(cache.valueAt(path));
    if (hash === refused) staleReruns++;
    output = update(cache.valueAt(path));
  }
}

module.exports = { openWatchingSession, runTransaction, MAX_TRANSACTION_RETRIES };
