// Who the console acts as: a credential kept for the tab, the emulator's `owner` where the node accepts it, or
// nobody on a node whose rules let everyone read. Otherwise it asks for an administrator's credential and shows
// nothing of the data until it has one.
import { call, session, setCredential, withParameters, NodeError } from './api.js';

/** Whether `credential` makes an administrator on this node (only administrators may read the rules). */
async function isAdministrator(credential) {
  try {
    await call('GET', withParameters('/.settings/rules.json', {}, credential));
    return true;
  } catch (error) {
    if (error instanceof NodeError && (error.status === 401 || error.status === 403)) return false;
    throw error;
  }
}

/** Whether someone without a credential may read the root of the data (a node open to everyone). */
async function isOpen() {
  try {
    await call('GET', withParameters('/.json', { shallow: 'true', limitToFirst: '1' }, null));
    return true;
  } catch (error) {
    if (error instanceof NodeError && (error.status === 401 || error.status === 403)) return false;
    throw error;
  }
}

/**
 * Settles who the console is: resolves to `'admin'` or `'visitor'` (may read the data, not the rules), or
 * `'none'` (must sign in first).
 */
export async function establish() {
  if (session.credential && await isAdministrator(session.credential)) return 'admin';
  if (session.credential) setCredential(null);
  if (await isAdministrator('owner')) {
    setCredential('owner');
    return 'admin';
  }
  return (await isOpen()) ? 'visitor' : 'none';
}

/** Signs in with `credential`: true when it makes an administrator (then it is kept for the tab). */
export async function signIn(credential) {
  if (!(await isAdministrator(credential))) return false;
  setCredential(credential);
  return true;
}

/** Forgets the tab's credential. */
export function signOut() {
  setCredential(null);
}
