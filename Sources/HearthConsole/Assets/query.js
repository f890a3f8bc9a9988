// The query panel: runs a Firebase query (orderBy key, value or a child; startAt/endAt/equalTo; a limit) at the
// path in the path bar as an SSE stream, so its results stay live, and lists them in the query's order.
import { isObject, watch } from './api.js';

/** Firebase's order of values: null, false, true, numbers, strings, objects; ties by key. */
function rank(value) {
  if (value === null || value === undefined) return [0, 0];
  if (value === false) return [1, 0];
  if (value === true) return [2, 0];
  if (typeof value === 'number') return [3, value];
  if (typeof value === 'string') return [4, value];
  return [5, 0];
}

function compareValues(left, right) {
  const [a, x] = rank(left);
  const [b, y] = rank(right);
  if (a !== b) return a - b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

/** Firebase's key order: keys that are 32-bit integers first, numerically, then the rest as strings. */
export function compareKeys(left, right) {
  const integer = (key) => /^-?\d{1,10}$/.test(key) && Math.abs(Number(key)) <= 2147483647;
  if (integer(left) && integer(right)) return Number(left) - Number(right);
  if (integer(left)) return -1;
  if (integer(right)) return 1;
  return left < right ? -1 : (left > right ? 1 : 0);
}

/** The value a child is ordered by under `orderBy` (`$key`, `$value`, or a child path). */
function indexValue(value, orderBy) {
  if (orderBy === '$value') return isObject(value) ? null : value;
  let node = value;
  for (const key of orderBy.split('/').filter((part) => part)) node = isObject(node) ? node[key] : null;
  return isObject(node) ? null : (node ?? null);
}

export class QueryPanel {
  constructor(form, results, keysOf) {
    this.form = form;
    this.results = results;
    this.keysOf = keysOf;
    this.stop = null;
    this.field = (id) => form.querySelector(`#${id}`);
    this.field('query-order').addEventListener('change', () => {
      this.field('query-child').hidden = this.field('query-order').value !== 'child';
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.run();
    });
    this.field('query-stop').addEventListener('click', () => this.close());
  }

  /** The REST query parameters the form describes. */
  parameters() {
    const order = this.field('query-order').value;
    const orderBy = order === 'child' ? this.field('query-child').value.trim() : order;
    const parameters = { orderBy: JSON.stringify(orderBy) };
    for (const name of ['startAt', 'endAt', 'equalTo']) {
      const text = this.field(`query-${name}`).value.trim();
      if (!text) continue;
      let value = text;
      try { value = JSON.parse(text); } catch { /* a bare word is a string */ }
      parameters[name] = JSON.stringify(value);
    }
    const limit = this.field('query-limit').value.trim();
    if (limit) parameters[this.field('query-anchor').value] = String(Math.max(1, Math.floor(Number(limit)) || 1));
    return { parameters, orderBy };
  }

  run() {
    this.close();
    const keys = this.keysOf();
    const { parameters, orderBy } = this.parameters();
    this.results.replaceChildren(this.line('Running…'));
    this.stop = watch(keys, parameters, (value) => this.show(value, orderBy), (reason) => {
      this.results.replaceChildren(this.line(reason, 'error'));
      this.stop = null;
    });
  }

  close() {
    if (this.stop) this.stop();
    this.stop = null;
  }

  line(text, className = 'status') {
    const item = document.createElement('li');
    item.className = className;
    item.textContent = text;
    return item;
  }

  /** Lists the query's current result in its order. */
  show(value, orderBy) {
    if (!isObject(value)) {
      this.results.replaceChildren(this.line(value === null ? 'No results.' : 'The location holds a single value.'));
      return;
    }
    const entries = Object.entries(value);
    entries.sort(([leftKey, left], [rightKey, right]) => (orderBy === '$key' ? 0
      : compareValues(indexValue(left, orderBy), indexValue(right, orderBy))) || compareKeys(leftKey, rightKey));
    this.results.replaceChildren(...entries.map(([key, child]) => {
      const item = document.createElement('li');
      const name = document.createElement('span');
      name.className = 'key';
      name.textContent = key;
      const text = document.createElement('span');
      text.className = 'value';
      const json = JSON.stringify(child);
      text.textContent = json.length > 200 ? `${json.slice(0, 200)}…` : json;
      item.append(name, ' ', text);
      return item;
    }));
  }
}
