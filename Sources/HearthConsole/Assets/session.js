// Who the console acts as: a credential kept for the tab, the emulator's `owner` where the node accepts it, or
// nobody on a node whose rules let everyone read. Otherwise it asks for an administrator's credential and shows
// nothing of the data until it has one. It learns all this from `GET /.console/session`, which the node answers
// 200 to anyone and which holds no data, so a signed-out page makes no request that fails.
import { call, session, setCredential, withParameters } from './api.js';

/**
 * The node's answer about `credential` (null for none): `{administrator, ownerAccepted, publicRead, namespace}`,
 * `publicRead` for the namespace the console browses.
 */
async function ask(credential) {
  return JSON.parse(await call('GET', withParameters('/.console/session', {}, credential)));
}

/**
 * Settles who the console is: resolves to `'admin'` or `'visitor'` (may read the data, not the rules), or
 * `'none'` (must sign in first).
 */
export async function establish() {
  const answer = await ask(session.credential);
  if (session.credential && answer.administrator) return 'admin';
  if (session.credential) setCredential(null);
  if (answer.ownerAccepted) {
    setCredential('owner');
    return 'admin';
  }
  return answer.publicRead ? 'visitor' : 'none';
}

/** Signs in with `credential`: true when it makes an administrator (then it is kept for the tab). */
export async function signIn(credential) {
  if (!(await ask(credential)).administrator) return false;
  setCredential(credential);
  return true;
}

/** Forgets the tab's credential. */
export function signOut() {
  setCredential(null);
}
