// The node page: health and readiness, charts from `/.metrics`, and (on a cluster member, for an administrator)
// the members with their release, SWIM state and links and every shard's leader, term, commit index and lag.
// Polled every second while the page is shown, so a member that goes down shows within seconds.
import { call, NodeError, withParameters } from './api.js';
import { Charts } from './charts.js';

/** How often the page asks the node again, in milliseconds. */
const interval = 1000;

/** A table with a header row and one row per entry; `cell` gives a column's text and class. */
function fill(table, headings, rows) {
  const head = document.createElement('tr');
  for (const heading of headings) {
    const cell = document.createElement('th');
    cell.textContent = heading;
    head.append(cell);
  }
  const body = rows.map((values) => {
    const row = document.createElement('tr');
    for (const value of values) {
      const cell = document.createElement('td');
      const [text, className] = Array.isArray(value) ? value : [value, ''];
      cell.textContent = text ?? '—';
      if (className) cell.className = className;
      row.append(cell);
    }
    return row;
  });
  table.replaceChildren(head, ...body);
}

/** The text of a request's answer, or the node's error message prefixed with its status. */
async function answer(path, parameters) {
  try {
    return { ok: true, text: await call('GET', withParameters(path, parameters)) };
  } catch (error) {
    return { ok: false, status: error instanceof NodeError ? error.status : 0, text: error.message };
  }
}

export class NodePage {
  /** `isAdministrator()` says whether the console acts as an administrator (who alone may read `/.cluster`). */
  constructor(elements, isAdministrator) {
    this.elements = elements;
    this.isAdministrator = isAdministrator;
    this.charts = new Charts(elements.charts);
    this.timer = null;
  }

  show() {
    if (this.timer) return;
    this.refresh();
    this.timer = setInterval(() => this.refresh(), interval);
  }

  hide() {
    clearInterval(this.timer);
    this.timer = null;
  }

  async refresh() {
    // Health and readiness come from the console's session answer (always a 200), not from /.health and /.ready,
    // whose 503s would show as errors in the browser's console while a member is down.
    const [session, metrics] = await Promise.all([answer('/.console/session', {}), answer('/.metrics', {})]);
    const state = session.ok ? JSON.parse(session.text) : null;
    const health = state ? { ok: state.healthProblem === null, text: state.healthProblem } : session;
    const ready = state ? { ok: state.notReadyReason === null, text: state.notReadyReason } : session;
    const { elements } = this;
    // Only a cluster member has raft metrics; only an administrator may read /.cluster. Not asking otherwise keeps
    // the browser's console free of refused requests.
    const member = metrics.ok && metrics.text.includes('hearth_raft_leader_changes_total');
    const cluster = member && this.isAdministrator()
      ? await answer('/.cluster', {})
      : { ok: false, status: member ? 401 : 404, text: 'Sign in as an administrator to see the members and shards.' };
    elements.health.textContent = health.ok ? 'ok' : health.text;
    elements.health.className = health.ok ? 'state-alive' : 'state-dead';
    elements.ready.textContent = ready.ok ? 'ready' : ready.text;
    elements.ready.className = ready.ok ? 'state-alive' : 'state-suspect';
    if (metrics.ok) this.charts.add(metrics.text, Date.now());
    if (!cluster.ok) {
      elements.status.textContent = cluster.status === 404
        ? 'This node runs alone (no cluster).' : `Cluster: ${cluster.text}`;
      elements.members.replaceChildren();
      elements.shards.replaceChildren();
      return;
    }
    this.showCluster(JSON.parse(cluster.text));
  }

  showCluster(status) {
    const { elements } = this;
    const shards = status.shards ?? [];
    const led = shards.filter((shard) => shard.leader).length;
    elements.status.textContent = `Cluster ${status.cluster}, seen from ${status.node}: `
      + `${status.members.length} members, ${led} of ${shards.length} shards with a leader`
      + (status.ready ? '.' : ` — not ready: ${status.notReadyReason}`);
    fill(elements.members,
      ['Member', 'Release', 'Membership', 'SWIM', 'Link', 'HTTP', 'Peer', 'Reconnects', 'Queued bytes'],
      status.members.map((member) => [
        member.id, member.release ?? '—', member.membership, [member.status, `state-${member.status}`],
        member.status === 'self' ? '—' : (member.partitioned ? 'partitioned' : (member.connected ? 'connected' : 'down')),
        member.http, member.peer, member.reconnects ?? '—', member.queuedBytes ?? '—',
      ]));
    fill(elements.shards, ['Shard', 'Leader', 'Term', 'Commit', 'Applied', 'Apply lag', 'Replicas', 'Follower lag'],
      shards.map((shard) => [
        String(shard.shard), [shard.leader ?? 'none', shard.leader ? '' : 'state-dead'], String(shard.term),
        String(shard.commit), String(shard.applied), String(shard.applyLag), shard.replicas.join(', '),
        shard.followers ? shard.followers.map((each) => `${each.id}: ${each.lag}`).join(', ') : '',
      ]));
  }
}
