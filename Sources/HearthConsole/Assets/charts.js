// Live charts drawn as inline SVG from `/.metrics` (Prometheus text), polled every second and kept for the last
// five minutes.
const keep = 300;

/** Sums every sample of each metric (all label sets) in Prometheus text. */
export function parseMetrics(text) {
  const totals = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const value = Number(match[3]);
    if (Number.isFinite(value)) totals.set(match[1], (totals.get(match[1]) ?? 0) + value);
  }
  return totals;
}

/** What each chart shows: a rate of a counter, a ratio of two counters' rates, or a gauge. */
const charts = [
  { title: 'Requests/s', rate: ['hearth_http_requests_total', 'hearth_wire_requests_total'] },
  { title: 'Writes/s (log records)', rate: ['hearth_wal_records_total'] },
  { title: 'fsync latency (ms)', ratio: ['hearth_wal_fsync_seconds_total', 'hearth_wal_fsyncs_total'], scale: 1000 },
  { title: 'Connections', gauge: 'hearth_connections_open', whole: true },
  { title: 'Client memory (MiB)', gauge: 'hearth_client_memory_bytes', scale: 1 / 1048576 },
  { title: 'Bytes sent/s (events delivered)', rate: ['hearth_network_sent_bytes_total'] },
];

export class Charts {
  constructor(container) {
    this.container = container;
    this.previous = null;
    this.series = charts.map(() => []);
    this.figures = charts.map((chart) => this.figure(chart.title));
  }

  figure(title) {
    const figure = document.createElement('div');
    figure.className = 'chart';
    const heading = document.createElement('h3');
    heading.textContent = title + ' ';
    const now = document.createElement('span');
    now.className = 'now';
    heading.append(now);
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', `0 0 ${keep} 60`);
    svg.setAttribute('preserveAspectRatio', 'none');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', title);
    const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
    svg.append(line);
    figure.append(heading, svg);
    this.container.append(figure);
    return { now, line };
  }

  /** Adds one sample of every chart from a `/.metrics` text read at `time` (milliseconds). */
  add(text, time) {
    const totals = parseMetrics(text);
    const previous = this.previous;
    this.previous = { totals, time };
    charts.forEach((chart, index) => {
      let value = null;
      if (chart.gauge) value = totals.get(chart.gauge) ?? null;
      if (previous && chart.rate) {
        const seconds = (time - previous.time) / 1000;
        const delta = chart.rate.reduce((sum, name) => sum + (totals.get(name) ?? 0) - (previous.totals.get(name) ?? 0), 0);
        value = seconds > 0 ? Math.max(0, delta / seconds) : null;
      }
      if (previous && chart.ratio) {
        const [top, bottom] = chart.ratio.map((name) => (totals.get(name) ?? 0) - (previous.totals.get(name) ?? 0));
        value = bottom > 0 ? top / bottom : 0;
      }
      if (value === null) return;
      value *= chart.scale ?? 1;
      const series = this.series[index];
      series.push(value);
      if (series.length > keep) series.shift();
      this.draw(this.figures[index], series, value, chart.whole);
    });
  }

  draw(figure, series, value, whole) {
    const top = Math.max(...series, 1e-9);
    // Until five minutes are kept, the samples so far fill the width.
    const step = (keep - 1) / Math.max(series.length - 1, 1);
    figure.line.setAttribute('points', series.map((each, index) =>
      `${(index * step).toFixed(1)},${(58 - (each / top) * 56).toFixed(1)}`).join(' '));
    figure.now.textContent = whole || value >= 100 ? value.toFixed(0) : value.toPrecision(3);
  }
}
