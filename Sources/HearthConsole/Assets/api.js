// Talks to the node through its public REST and SSE APIs. The credential lives in this module and the tab's
// sessionStorage only; it travels as `auth=` on each request, never in the page's own URL or a cookie.

const storageKey = 'hearth.console.credential';

export const session = {
  credential: sessionStorage.getItem(storageKey),
  namespace: '',
};

/** Keeps `credential` for this tab (null forgets it). */
export function setCredential(credential) {
  session.credential = credential;
  if (credential === null) sessionStorage.removeItem(storageKey);
  else sessionStorage.setItem(storageKey, credential);
}

/** An error the node answered with: its status and Firebase's `{"error": …}` message. */
export class NodeError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** The REST address of a location (an array of keys) with the given query parameters. */
export function restURL(keys, parameters = {}, credential = session.credential) {
  const path = '/' + keys.map(encodeURIComponent).join('/') + '.json';
  return withParameters(path, parameters, credential);
}

/** A dot path (`/.cluster`, `/.settings/rules.json`) or REST path with the namespace and credential added. */
export function withParameters(path, parameters = {}, credential = session.credential) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) query.set(name, value);
  if (session.namespace) query.set('ns', session.namespace);
  if (credential) query.set('auth', credential);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** Sends a request and returns the response text, or throws `NodeError` with the node's message. */
export async function call(method, url, body) {
  const init = { method, cache: 'no-store' };
  if (body !== undefined) {
    init.body = body;
    init.headers = { 'Content-Type': 'application/json' };
  }
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try { message = JSON.parse(text).error ?? text; } catch { /* the body was not JSON */ }
    throw new NodeError(response.status, message || response.statusText);
  }
  return text;
}

/** Reads JSON from a REST location. */
export async function read(keys, parameters) {
  return JSON.parse(await call('GET', restURL(keys, parameters)));
}

/** Replaces the value at a location (`null` deletes it). */
export function write(keys, value) {
  return call('PUT', restURL(keys, { print: 'silent' }), JSON.stringify(value));
}

/** Deletes the subtree at a location. */
export function remove(keys) {
  return call('DELETE', restURL(keys, { print: 'silent' }));
}

/**
 * Watches a location over SSE: `onValue(data)` for every whole value the stream puts, `onEnd(reason)` when the
 * node ends it (rules, credential) or it fails. Returns a function that closes the stream.
 */
export function watch(keys, parameters, onValue, onEnd) {
  const source = new EventSource(restURL(keys, parameters));
  let current = null;
  const apply = (event, patch) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    if (!message || typeof message.path !== 'string') return;
    current = applyChange(current, message.path, message.data, patch);
    onValue(current);
  };
  source.addEventListener('put', (event) => apply(event, false));
  source.addEventListener('patch', (event) => apply(event, true));
  source.addEventListener('cancel', () => { source.close(); onEnd('The rules no longer let you read this.'); });
  source.addEventListener('auth_revoked', () => { source.close(); onEnd('The credential is no longer valid.'); });
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) onEnd('The stream closed.');
  };
  return () => source.close();
}

/** The value after a `put` or `patch` at `path` (relative to the stream's location). */
function applyChange(value, path, data, patch) {
  const keys = path.split('/').filter((key) => key.length > 0);
  if (keys.length === 0 && !patch) return data;
  const root = isObject(value) ? { ...value } : {};
  let node = root;
  for (const key of keys) {
    node[key] = isObject(node[key]) ? { ...node[key] } : {};
    node = node[key];
  }
  if (patch) {
    for (const [key, child] of Object.entries(data ?? {})) {
      if (child === null) delete node[key]; else node[key] = child;
    }
  } else if (keys.length > 0) {
    const parent = keys.slice(0, -1).reduce((object, key) => object[key], root);
    if (data === null) delete parent[keys[keys.length - 1]]; else parent[keys[keys.length - 1]] = data;
  }
  return root;
}

/** True for a JSON object (not an array, not null). */
export function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
