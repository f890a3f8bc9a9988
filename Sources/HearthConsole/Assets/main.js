// Starts the console: settles who it acts as, then shows the page the address's fragment names (#data, #rules,
// #node). The fragment never carries the credential.
import { call, restURL, session } from './api.js';
import { NodePage } from './cluster.js';
import { NamespacePicker } from './namespaces.js';
import { Playground } from './playground.js';
import { QueryPanel } from './query.js';
import { RulesPage } from './rules.js';
import { establish, signIn, signOut } from './session.js';
import { Tree } from './tree.js';

const byId = (id) => document.getElementById(id);
let role = 'none';
/** True while a visitor asked for the sign-in form. */
let signingIn = false;

/** Asks the user to confirm in the page's dialog (its button saying `action`); resolves to true when confirmed. */
function confirmInDialog(text, action = 'Delete') {
  const dialog = byId('confirm');
  byId('confirm-text').textContent = text;
  byId('confirm-ok').textContent = action;
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
  });
}

const tree = new Tree(byId('tree'), byId('data-status'), confirmInDialog,
  () => session.namespace || location.host);
const rules = new RulesPage(byId('rules-text'), byId('rules-gutter'), byId('rules-status'), () => role === 'admin');
new Playground(byId('playground'), rules);
const node = new NodePage({
  health: byId('node-health'), ready: byId('node-ready'), charts: byId('charts'), status: byId('cluster-status'),
  members: byId('members'), shards: byId('shards'),
}, () => role === 'admin');

/** The keys of a path typed in the path bar (`/users/ada` → `["users", "ada"]`). */
function keysOf(text) {
  return text.split('/').filter((key) => key.length > 0);
}

function currentKeys() {
  return keysOf(byId('path').value);
}

const query = new QueryPanel(byId('query'), byId('query-results'), currentKeys);

/** Shows the page the fragment names, or the sign-in form while the console has no one to act as. */
function show() {
  const page = role === 'none' || signingIn ? 'sign-in' : (location.hash.slice(1) || 'data');
  for (const section of document.querySelectorAll('main > section')) {
    section.hidden = section.id !== (page === 'sign-in' ? 'sign-in' : `page-${page}`);
  }
  for (const link of document.querySelectorAll('nav a')) link.classList.toggle('current', link.dataset.page === page);
  if (page === 'data' && !tree.root) tree.open(currentKeys());
  if (page !== 'data' && page !== 'sign-in') {
    tree.close();
    query.close();
  }
  if (page === 'rules') rules.load();
  if (page === 'node') node.show(); else node.hide();
  if (page === 'sign-in') byId('credential').focus();
}

/** Shows who the console acts as in the header (and offers an administrator the node's namespaces). */
function showIdentity() {
  namespaces.setAdministrator(role === 'admin');
  const names = { admin: 'administrator', visitor: 'visitor (the rules apply)', none: 'signed out' };
  byId('identity').textContent = names[role];
  byId('sign-out').hidden = role !== 'admin' || session.credential === 'owner';
  byId('sign-in-open').hidden = role !== 'visitor';
}

async function start() {
  try {
    role = await establish();
  } catch (error) {
    byId('sign-in-error').textContent = `The node did not answer: ${error.message}`;
    role = 'none';
  }
  showIdentity();
  show();
}

byId('sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const credential = byId('credential').value;
  byId('credential').value = '';
  if (await signIn(credential)) {
    role = 'admin';
    signingIn = false;
    tree.close();
    byId('sign-in-error').textContent = '';
    showIdentity();
    show();
  } else {
    byId('sign-in-error').textContent = 'That credential is not an administrator\'s on this node.';
  }
});

byId('sign-in-open').addEventListener('click', () => {
  signingIn = true;
  show();
});

byId('sign-out').addEventListener('click', () => {
  signOut();
  tree.close();
  query.close();
  role = 'none';
  showIdentity();
  start();
});

byId('path-bar').addEventListener('submit', (event) => {
  event.preventDefault();
  byId('path').value = '/' + currentKeys().join('/');
  tree.open(currentKeys());
});

const namespaces = new NamespacePicker(byId('namespace'), byId('namespace-list'), (name) => {
  session.namespace = name;
  tree.close();
  query.close();
  start();
});

byId('export').addEventListener('click', async () => {
  const keys = currentKeys();
  try {
    const text = await call('GET', restURL(keys, { format: 'export' }));
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    link.download = `${keys.length ? keys.join('-') : 'root'}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    tree.report(`Exported /${keys.join('/')}.`);
  } catch (error) {
    tree.report(error.message);
  }
});

byId('import').addEventListener('change', async (event) => {
  const file = event.target.files[0];
  event.target.value = '';
  if (!file) return;
  const keys = currentKeys();
  const text = await file.text();
  try {
    JSON.parse(text);
  } catch (error) {
    tree.report(`${file.name} is not JSON: ${error.message}`);
    return;
  }
  if (!(await confirmInDialog(`Replace /${keys.join('/')} with the contents of ${file.name}?`, 'Replace'))) return;
  tree.report(`Importing ${file.name}…`);
  // An administrator's import may be as large as --max-import-bytes; anyone else keeps --max-write-bytes.
  await tree.attempt(() => call('PUT', restURL(keys, { print: 'silent', writeSizeLimit: 'unlimited' }), text));
});

byId('rules-reload').addEventListener('click', () => rules.load());
byId('rules-deploy').addEventListener('click', () => rules.deploy());
addEventListener('hashchange', show);
// `/` jumps to the path bar from anywhere outside a text field, as in Firebase's console.
addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.target.closest?.('input, textarea, select')) return;
  if (byId('page-data').hidden) return;
  event.preventDefault();
  byId('path').focus();
  byId('path').select();
});
start();
