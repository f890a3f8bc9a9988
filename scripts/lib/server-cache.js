// A client's copy of the data its listens receive, as the SDKs keep it: every `d` (overwrite) and `m` (merge) push
// is applied to one local tree, which a transaction then reads its input from.
'use strict';

class ServerCache {
  constructor() {
    this.root = null;
    // Counts the data pushes applied so far.
    this.version = 0;
  }

  // Applies one push (`{a, b: {p, d}}`); pushes that carry no data (revocations) are ignored.
  apply(push) {
    const base = pathKeys(push.b.p);
    if (push.a === 'd') {
      this.root = setAt(this.root, base, push.b.d);
    } else if (push.a === 'm') {
      for (const [relative, value] of Object.entries(push.b.d)) {
        this.root = setAt(this.root, base.concat(pathKeys(relative)), value);
      }
    } else {
      return;
    }
    this.version++;
  }

  // A private copy of the cached value at `path` (null when nothing is cached there).
  valueAt(path) {
    let node = this.root;
    for (const key of pathKeys(path)) {
      if (node === null || typeof node !== 'object' || !(key in node)) return null;
      node = node[key];
    }
    return node === null ? null : JSON.parse(JSON.stringify(node));
  }
}

// The keys of a slash-separated path ("/a/b", "a/b" and "" for the root all work).
function pathKeys(path) {
  return path.split('/').filter((key) => key.length > 0);
}

// `value` as stored: null children and empty objects are absent (arrays become objects keyed by index).
function normalize(value) {
  if (value === null || value === undefined || typeof value !== 'object') return value === undefined ? null : value;
  const out = {};
  for (const [key, child] of Object.entries(value)) {
    const normalized = normalize(child);
    if (normalized !== null) out[key] = normalized;
  }
  return Object.keys(out).length === 0 ? null : out;
}

// `tree` with the value at `keys` replaced by `value` (removed when null); empty parents disappear.
function setAt(tree, keys, value) {
  if (keys.length === 0) return normalize(value);
  const node = tree !== null && typeof tree === 'object' ? { ...tree } : {};
  const child = setAt(node[keys[0]] === undefined ? null : node[keys[0]], keys.slice(1), value);
  if (child === null) delete node[keys[0]]; else node[keys[0]] = child;
  return Object.keys(node).length === 0 ? null : node;
}

module.exports = { ServerCache, normalize };
