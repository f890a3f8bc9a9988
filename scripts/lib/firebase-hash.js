// Firebase's node hash (what clients send as `h` in listens and compare-and-set puts), for plain JSON values.
// The same algorithm as the SDK's LeafNode/ChildrenNode.hash() and Sources/HearthCore/Tree/Node+Hash.swift:
// a leaf hashes "number:<16 hex digits of the IEEE-754 double>", "string:<text>" or "boolean:<true|false>"; an
// object hashes ":<key>:<child hash>" for every non-empty child in key order; "" for nothing; SHA-1, base64.
// Priorities are not supported (the benchmarks write none).
'use strict';
const crypto = require('crypto');

// The hash of `value` (null or an empty object hash to "").
function firebaseHash(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    let text = '';
    for (const key of Object.keys(value).sort(compareKeys)) {
      if (key === '.priority' || key === '.value') throw new Error('firebaseHash: priorities are not supported');
      const childHash = firebaseHash(value[key]);
      if (childHash !== '') text += `:${key}:${childHash}`;
    }
    return text === '' ? '' : sha1(text);
  }
  switch (typeof value) {
    case 'number': return sha1(`number:${doubleHex(value)}`);
    case 'string': return sha1(`string:${value}`);
    case 'boolean': return sha1(`boolean:${value}`);
    default: throw new Error(`firebaseHash: cannot hash a ${typeof value}`);
  }
}

// Firebase key order: keys that are 32-bit integers first, numerically (shorter first on ties, "01" after "1"),
// then every other key by UTF-16 code units.
function compareKeys(a, b) {
  if (a === b) return 0;
  const aInt = integerKey(a);
  const bInt = integerKey(b);
  if (aInt !== null && bInt !== null) return aInt - bInt === 0 ? a.length - b.length : aInt - bInt;
  if (aInt !== null) return -1;
  if (bInt !== null) return 1;
  return a < b ? -1 : 1;
}

function integerKey(key) {
  if (!/^-?(0*)\d{1,10}$/.test(key)) return null;
  const value = Number(key);
  return value >= -2147483648 && value <= 2147483647 ? value : null;
}

function doubleHex(number) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, number);
  let hex = '';
  for (let i = 0; i < 8; i++) hex += view.getUint8(i).toString(16).padStart(2, '0');
  return hex;
}

function sha1(text) {
  return crypto.createHash('sha1').update(text, 'utf8').digest('base64');
}

module.exports = { firebaseHash, compareKeys };
