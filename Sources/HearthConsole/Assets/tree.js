// The data tree: each expanded location is watched over SSE one level and one page at a time
// (`shallow=values&orderBy="$key"&limitToFirst=…`), so a node with a million children never downloads whole. Rows
// flash as values are added, changed and removed, and can be edited, added to and deleted in place.
import { isObject, read, remove, restURL, watch, write } from './api.js';

/** Children shown per page of an expanded location. */
export const pageSize = 50;

/**
 * Locations watched over SSE at once. A browser opens at most six HTTP/1.1 connections to a node and every stream
 * holds one, so the tree streams its three most recently opened locations, reads older ones again every
 * `pollInterval`, and leaves the other connections to writes, the query panel and the node page.
 */
const maxStreams = 3;

/** How often a location that is not streaming is read again, in milliseconds. */
const pollInterval = 2000;

/** How long a row stays marked after a change, in milliseconds. */
const flashTime = 1600;

/** The text of a leaf value as the tree shows it (strings quoted, as JSON). */
function leafText(value) {
  return JSON.stringify(value);
}

/** A value typed by hand: JSON when it parses, otherwise the text as a string (as Firebase's console does). */
export function parseTyped(text) {
  try { return JSON.parse(text); } catch { return text; }
}

/** The location `keys` as a path (`/users/ada`). */
export function pathText(keys) {
  return '/' + keys.join('/');
}

/** Creates an element with a class and text. */
function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** One location in the tree: its row, its children (while expanded) and the stream that keeps them current. */
class Item {
  constructor(tree, keys, value) {
    this.tree = tree;
    this.keys = keys;
    this.value = value;
    this.children = new Map();
    this.limit = pageSize;
    this.stop = null;
    this.element = element('li');
    this.element.setAttribute('role', 'treeitem');
    this.element.item = this;
    this.row = element('div', 'row');
    this.row.tabIndex = -1;
    this.toggle = element('button', 'toggle');
    this.toggle.type = 'button';
    this.toggle.tabIndex = -1;
    this.toggle.addEventListener('click', () => this.setExpanded(!this.expanded));
    const key = element('span', 'key', keys.length === 0 ? tree.rootLabel() : keys[keys.length - 1]);
    this.valueText = element('span', 'value');
    this.valueText.addEventListener('click', () => this.edit());
    this.row.append(this.toggle, key, this.valueText, this.actions());
    this.group = element('ul');
    this.group.setAttribute('role', 'group');
    this.element.append(this.row, this.group);
    this.render();
  }

  /** True for a location with children of its own (`{}` in a level, or an object after expanding). */
  get isBranch() {
    return isObject(this.value);
  }

  get expanded() {
    return this.stop !== null;
  }

  /** The row's buttons: add a child, delete, copy the path, copy the reference URL. */
  actions() {
    const actions = element('span', 'actions');
    const add = element('button', '', '+');
    add.type = 'button';
    add.title = 'Add a child';
    add.addEventListener('click', () => this.addChild());
    const del = element('button', 'danger', '×');
    del.type = 'button';
    del.title = 'Delete';
    del.addEventListener('click', () => this.delete());
    const path = element('button', '', 'path');
    path.type = 'button';
    path.title = 'Copy the path';
    path.addEventListener('click', () => this.tree.copy(pathText(this.keys)));
    const url = element('button', '', 'url');
    url.type = 'button';
    url.title = 'Copy the reference URL';
    url.addEventListener('click', () => this.tree.copy(location.origin + restURL(this.keys, {}, null)));
    for (const button of [add, del, path, url]) button.tabIndex = -1;
    actions.append(add, del, path, url);
    return actions;
  }

  /** Shows the value (for a leaf) or the toggle (for a branch). */
  render() {
    this.toggle.textContent = this.isBranch ? (this.expanded ? '▾' : '▸') : '';
    this.toggle.disabled = !this.isBranch;
    if (this.isBranch) this.element.setAttribute('aria-expanded', String(this.expanded));
    else this.element.removeAttribute('aria-expanded');
    this.valueText.className = 'value' + (typeof this.value === 'string' ? ' string' : '');
    this.valueText.textContent = this.isBranch ? '' : (this.value === null ? 'null' : leafText(this.value));
  }

  /** Marks the row as added, changed or removed for a moment. */
  flash(kind) {
    this.element.classList.remove('added', 'changed', 'removed');
    void this.element.offsetWidth;
    this.element.classList.add(kind);
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => this.element.classList.remove(kind), flashTime);
  }

  setExpanded(expanded) {
    if (expanded === this.expanded || (expanded && !this.isBranch)) return;
    if (expanded) this.watch(); else this.collapse();
    this.render();
  }

  /** The one-level, one-page read this location is watched with. */
  get parameters() {
    return { shallow: 'values', orderBy: '"$key"', limitToFirst: String(this.limit + 1) };
  }

  /** Opens (or reopens, after the page grew) the watch on this location's first `limit` children. */
  watch() {
    this.initialized = false;
    if (this.tree.streaming.includes(this)) this.stream();
    else if (this.tree.polled.has(this)) this.poll();
    else this.tree.admit(this);
  }

  /** Watches over an SSE stream (what the tree gives its most recently opened locations). */
  stream() {
    this.unwatch();
    this.mode = 'stream';
    this.row.title = '';
    this.stop = watch(this.keys, this.parameters, (level) => this.update(level), (reason) => {
      this.tree.report(`${pathText(this.keys)}: ${reason}`);
      this.collapse();
      this.render();
    });
  }

  /** Watches by reading the level every `pollInterval` (when the browser's connections are all streaming). */
  poll() {
    this.unwatch();
    this.mode = 'poll';
    this.row.title = `Read again every ${pollInterval / 1000} s`;
    const stop = () => clearInterval(timer);
    const tick = async () => {
      try {
        const level = await read(this.keys, this.parameters);
        if (this.stop === stop) this.update(level);
      } catch (error) {
        if (this.stop === stop) this.tree.report(`${pathText(this.keys)}: ${error.message}`);
      }
    };
    const timer = setInterval(tick, pollInterval);
    this.stop = stop;
    tick();
  }

  /** Ends this location's own stream or polling. */
  unwatch() {
    if (this.stop) this.stop();
    this.stop = null;
  }

  /** Closes this location's watch and its children's. */
  collapse() {
    if (this.stop) this.tree.release(this);
    this.unwatch();
    this.clearChildren();
  }

  /** Removes every child row, closing their streams. */
  clearChildren() {
    for (const child of this.children.values()) child.collapse();
    this.children.clear();
    this.group.replaceChildren();
  }

  /** Applies a level the stream sent: new rows, changed values and removed rows, each marked. */
  update(level) {
    this.tree.loaded(this);
    if (!isObject(level)) {
      this.clearChildren();
      this.value = level;
      this.render();
      if (this.initialized && this.keys.length > 0) this.flash(level === null ? 'removed' : 'changed');
      this.initialized = true;
      return;
    }
    if (!this.isBranch) {
      this.value = {};
      this.render();
    }
    const keys = Object.keys(level);
    const shown = keys.slice(0, this.limit);
    const present = new Set(shown);
    for (const [key, child] of this.children) {
      if (present.has(key)) continue;
      this.children.delete(key);
      child.collapse();
      if (key in level) { child.element.remove(); continue; }
      child.flash('removed');
      setTimeout(() => child.element.remove(), flashTime / 2);
    }
    let previous = null;
    for (const key of shown) {
      const value = level[key];
      let child = this.children.get(key);
      if (!child) {
        child = new Item(this.tree, [...this.keys, key], value);
        this.children.set(key, child);
        if (this.initialized) child.flash('added');
      } else if (JSON.stringify(child.value) !== JSON.stringify(value) && !(child.isBranch && isObject(value))) {
        if (!isObject(value)) child.collapse();
        child.value = value;
        child.render();
        child.flash('changed');
      }
      const anchor = previous ? previous.element.nextSibling : this.group.firstChild;
      if (anchor !== child.element) this.group.insertBefore(child.element, anchor);
      previous = child;
    }
    this.group.querySelector(':scope > li.more')?.remove();
    if (keys.length > this.limit) this.group.append(this.moreButton());
    this.initialized = true;
  }

  /** The "show more" row under a page that has more children after it. */
  moreButton() {
    const more = element('li', 'more');
    const button = element('button', '', `Show ${pageSize} more`);
    button.type = 'button';
    button.addEventListener('click', () => {
      this.limit += pageSize;
      this.watch();
    });
    more.append(button);
    return more;
  }

  /** Edits a leaf's value in place: Enter saves (JSON, or else a string), Escape cancels. */
  edit() {
    if (this.isBranch || this.keys.length === 0) return;
    const input = element('input');
    input.value = leafText(this.value);
    input.setAttribute('aria-label', `Value of ${pathText(this.keys)}`);
    this.row.classList.add('editing');
    this.valueText.replaceChildren(input);
    input.focus();
    input.select();
    // Once only: taking the field away blurs it, and that blur must not finish the edit a second time.
    let finished = false;
    const finish = async (save) => {
      if (finished) return;
      finished = true;
      const text = input.value;
      this.row.classList.remove('editing');
      this.render();
      this.row.focus();
      if (save) await this.tree.attempt(() => write(this.keys, parseTyped(text)));
    };
    input.addEventListener('keydown', (event) => {
      event.stopPropagation();
      if (event.key === 'Enter') finish(true);
      if (event.key === 'Escape') finish(false);
    });
    input.addEventListener('blur', () => finish(false));
  }

  /** Adds a child: a row with a key and a value field; Enter writes it. */
  addChild() {
    const form = element('form', 'row editing');
    const key = element('input');
    key.placeholder = 'key';
    key.setAttribute('aria-label', 'New key');
    const value = element('input');
    value.placeholder = 'value (JSON or text)';
    value.setAttribute('aria-label', 'New value');
    const save = element('button', '', 'Add');
    const cancel = element('button', '', 'Cancel');
    cancel.type = 'button';
    form.append(key, value, save, cancel);
    const holder = element('li');
    holder.append(form);
    this.group.prepend(holder);
    if (this.isBranch && !this.expanded) this.setExpanded(true);
    key.focus();
    const close = () => { holder.remove(); this.row.focus(); };
    cancel.addEventListener('click', close);
    form.addEventListener('keydown', (event) => {
      event.stopPropagation();
      if (event.key === 'Escape') close();
    });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (!key.value) return;
      close();
      await this.tree.attempt(() => write([...this.keys, key.value], parseTyped(value.value)));
    });
  }

  /** Deletes the subtree after the user confirms. */
  async delete() {
    const what = this.keys.length === 0 ? 'everything in this namespace' : pathText(this.keys);
    if (await this.tree.confirm(`Delete ${what}?`)) await this.tree.attempt(() => remove(this.keys));
  }
}

/** The tree shown on the data page, rooted at the path in the path bar. */
export class Tree {
  constructor(list, status, confirm, label) {
    this.list = list;
    this.status = status;
    this.confirm = confirm;
    this.rootLabel = label;
    this.root = null;
    this.onLoaded = null;
    /** The expanded locations streaming, oldest first, and those polled. */
    this.streaming = [];
    this.polled = new Set();
    list.addEventListener('keydown', (event) => this.key(event));
  }

  /** Shows the tree rooted at `keys`, expanded one level. */
  open(keys) {
    this.close();
    this.root = new Item(this, keys, {});
    this.list.append(this.root.element);
    this.root.setExpanded(true);
    this.root.row.tabIndex = 0;
  }

  close() {
    this.root?.collapse();
    this.root = null;
    this.list.replaceChildren();
  }

  /** Starts watching an opened location: a stream, the oldest stream turning to polling when all are taken. */
  admit(item) {
    if (this.streaming.length >= maxStreams) {
      const oldest = this.streaming.shift();
      this.polled.add(oldest);
      oldest.poll();
    }
    this.streaming.push(item);
    item.stream();
  }

  /** A location stops being watched: a polled one, if any, takes its stream. */
  release(item) {
    this.polled.delete(item);
    const index = this.streaming.indexOf(item);
    if (index < 0) return;
    this.streaming.splice(index, 1);
    const next = [...this.polled].pop();
    if (!next) return;
    this.polled.delete(next);
    this.streaming.push(next);
    next.stream();
  }

  /** Called when a location's level arrives (the page's first paint is measured from here). */
  loaded(item) {
    if (item === this.root && this.onLoaded) this.onLoaded();
  }

  /** Shows a message under the path bar. */
  report(message) {
    this.status.textContent = message;
  }

  /** Runs a write, showing the node's refusal if it has one. */
  async attempt(action) {
    try {
      await action();
      this.report('');
    } catch (error) {
      this.report(error.message);
    }
  }

  async copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      this.report(`Copied ${text}`);
    } catch {
      this.report(text);
    }
  }

  /** Every row a keyboard user can reach, top to bottom. */
  rows() {
    return [...this.list.querySelectorAll('.row')].filter((row) => row.offsetParent !== null && row.parentElement.item);
  }

  /** Arrow keys move and open, Enter edits, Delete deletes, `a` adds a child. */
  key(event) {
    const row = event.target.closest?.('.row');
    const item = row?.parentElement?.item;
    if (!item || event.target !== row) return;
    const rows = this.rows();
    const index = rows.indexOf(row);
    const focus = (target) => {
      if (!target) return;
      for (const each of rows) each.tabIndex = -1;
      target.tabIndex = 0;
      target.focus();
    };
    switch (event.key) {
      case 'ArrowDown': focus(rows[index + 1]); break;
      case 'ArrowUp': focus(rows[index - 1]); break;
      case 'ArrowRight':
        if (item.isBranch && !item.expanded) item.setExpanded(true);
        else focus(rows[index + 1]);
        break;
      case 'ArrowLeft':
        if (item.expanded && item !== this.root) item.setExpanded(false);
        else focus(row.parentElement.parentElement.closest('li')?.item?.row);
        break;
      case 'Enter': item.isBranch ? item.setExpanded(!item.expanded) : item.edit(); break;
      case 'Delete': item.delete(); break;
      case 'a': item.addChild(); break;
      default: return;
    }
    event.preventDefault();
  }
}
