/**
 * The /ops page: one self-contained HTML document (no build step, no CDN). Its script reads
 * GET /ops/pipeline for the health panel and GET /orders/:id/timeline for the picture: an SVG
 * sequence chart with one column per service and one row per event, oldest at the top. All data
 * is written with textContent, never as HTML. The page and its data need the operator token: a
 * browser asks for it (Basic: any user name, the token as password) and sends it with these
 * requests itself.
 */
export const OPS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trading pipeline: ops</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1d2430; background: #f7f8fa; }
  h1 { font-size: 1.3rem; margin: 0 0 1rem; }
  h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
  table { border-collapse: collapse; background: #fff; }
  th, td { border: 1px solid #d5d9e0; padding: .3rem .6rem; text-align: right; }
  th:first-child, td:first-child { text-align: left; }
  .bad { color: #b3261e; font-weight: 600; }
  .unavailable { color: #8a5a00; }
  form { display: flex; gap: .5rem; align-items: center; }
  input { font: inherit; padding: .25rem .4rem; width: 10rem; }
  button { font: inherit; padding: .25rem .8rem; }
  #timeline-status { margin: .5rem 0; }
  #timeline-chart { background: #fff; border: 1px solid #d5d9e0; overflow-x: auto; }
  .sections li { margin: .15rem 0; }
</style>
</head>
<body>
<h1>Trading pipeline</h1>
<section id="health">
  <h2>Pipeline health <small id="health-time"></small></h2>
  <table id="outbox-health">
    <thead><tr><th>outbox of</th><th>NEW</th><th>SENDING</th><th>DEAD</th><th>oldest unsent (ms)</th></tr></thead>
    <tbody></tbody>
  </table>
  <br>
  <table id="inbox-health">
    <thead><tr><th>consumer</th><th>DLQ messages</th><th>parked</th><th>open gaps</th></tr></thead>
    <tbody></tbody>
  </table>
</section>
<section>
  <h2>Order timeline</h2>
  <form id="timeline-form">
    <label for="order-id">Order id</label>
    <input id="order-id" name="orderId" inputmode="numeric" autocomplete="off" required>
    <button type="submit">Show</button>
  </form>
  <div id="timeline-status" role="status"></div>
  <ul id="timeline-sections" class="sections"></ul>
  <div id="timeline-chart"></div>
</section>
<script>
(function () {
  'use strict';
  var LANES = ['order-service', 'fulfillment-service', 'coupon-provider', 'accounting-service'];
  var COLORS = { transition: '#1f6feb', outbox: '#8250df', published: '#2da44e', dead: '#cf222e',
    inbox: '#bf8700', duplicate: '#fb8500', coupon: '#1a7f37', journal: '#0969da' };
  var SVG = 'http://www.w3.org/2000/svg';

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = String(text);
    return node;
  }
  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = String(text);
    return node;
  }
  function cell(row, value, bad, testId) {
    var td = el('td', testId ? { 'data-testid': testId } : {}, value);
    if (bad) td.className = 'bad';
    row.appendChild(td);
  }
  function unavailableRow(tbody, name, columns, error) {
    var tr = el('tr', { 'data-service': name });
    cell(tr, name);
    var td = el('td', { colspan: String(columns), class: 'unavailable' }, 'unavailable: ' + error);
    tr.appendChild(td);
    tbody.appendChild(tr);
  }

  function renderHealth(health) {
    document.getElementById('health-time').textContent = 'at ' + health.generatedAt;
    var outbox = document.querySelector('#outbox-health tbody');
    outbox.replaceChildren();
    Object.keys(health.outbox).forEach(function (name) {
      var s = health.outbox[name];
      if (s.status !== 'ok') return unavailableRow(outbox, name, 4, s.error);
      var tr = el('tr', { 'data-service': name });
      cell(tr, name);
      cell(tr, s.data.backlog.NEW, false, 'outbox-new');
      cell(tr, s.data.backlog.SENDING, false, 'outbox-sending');
      cell(tr, s.data.dead, s.data.dead > 0, 'outbox-dead');
      cell(tr, s.data.oldestUnsentAgeMs, false, 'outbox-oldest');
      outbox.appendChild(tr);
    });
    var inbox = document.querySelector('#inbox-health tbody');
    inbox.replaceChildren();
    Object.keys(health.inbox).forEach(function (name) {
      var s = health.inbox[name];
      if (s.status !== 'ok') return unavailableRow(inbox, name, 3, s.error);
      var tr = el('tr', { 'data-service': name });
      cell(tr, name);
      var dlq = s.data.deadLetterTopicMessages;
      cell(tr, dlq === null ? 'unknown' : dlq, dlq !== 0, 'dlq');
      cell(tr, s.data.parkedNow, s.data.parkedNow > 0, 'parked');
      cell(tr, s.data.openGaps.length, s.data.openGaps.length > 0, 'open-gaps');
      inbox.appendChild(tr);
    });
  }

  function loadHealth() {
    return fetch('/ops/pipeline').then(function (r) {
      if (!r.ok) throw new Error('HTTP ' + r.status);
      return r.json();
    }).then(renderHealth);
  }

  function renderSections(timeline) {
    var list = document.getElementById('timeline-sections');
    list.replaceChildren();
    var o = timeline.order;
    list.appendChild(el('li', { 'data-section': 'order' },
      'order ' + o.id + ': ' + o.status + ', ' + o.amount + ' ' + o.currency + ', version ' + o.version));
    ['fulfillment', 'coupon', 'accounting'].forEach(function (name) {
      var s = timeline.sections[name];
      var text = s.status === 'ok' ? name + ': ok' : name + ': unavailable (' + s.error + ')';
      var li = el('li', { 'data-section': name, 'data-status': s.status }, text);
      if (s.status !== 'ok') li.className = 'unavailable';
      list.appendChild(li);
    });
  }

  function renderChart(events) {
    var laneWidth = 270, left = 190, rowHeight = 34, top = 40;
    var width = left + LANES.length * laneWidth + 10;
    var height = top + events.length * rowHeight + 20;
    var chart = svg('svg', { width: String(width), height: String(height),
      viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': 'order timeline' });
    LANES.forEach(function (lane, i) {
      var x = left + i * laneWidth + laneWidth / 2;
      chart.appendChild(svg('text', { x: String(x), y: '22', 'text-anchor': 'middle',
        'font-weight': '600', 'font-size': '13' }, lane));
      chart.appendChild(svg('line', { x1: String(x), y1: '30', x2: String(x), y2: String(height - 10),
        stroke: '#c9ced6', 'stroke-dasharray': '4 4' }));
    });
    events.forEach(function (e, row) {
      var lane = LANES.indexOf(e.lane);
      var cx = left + lane * laneWidth + laneWidth / 2;
      var y = top + row * rowHeight;
      var g = svg('g', { 'data-kind': e.kind, 'data-lane': e.lane, class: 'timeline-event' });
      g.appendChild(svg('title', {}, e.at + ' ' + e.title + (e.detail ? '\\n' + e.detail : '')));
      g.appendChild(svg('text', { x: '8', y: String(y + 17), 'font-size': '11', fill: '#57606a' },
        e.at.replace('T', ' ').replace('Z', '')));
      g.appendChild(svg('rect', { x: String(cx - laneWidth / 2 + 8), y: String(y + 2),
        width: String(laneWidth - 16), height: String(rowHeight - 6), rx: '5',
        fill: '#fff', stroke: COLORS[e.kind] || '#57606a', 'stroke-width': '1.5' }));
      g.appendChild(svg('text', { x: String(cx), y: String(y + 20), 'text-anchor': 'middle',
        'font-size': '11.5', fill: COLORS[e.kind] || '#1d2430' }, e.title));
      chart.appendChild(g);
    });
    var box = document.getElementById('timeline-chart');
    box.replaceChildren(chart);
  }

  function showTimeline(orderId) {
    var status = document.getElementById('timeline-status');
    status.textContent = 'loading order ' + orderId + '…';
    return fetch('/orders/' + encodeURIComponent(orderId) + '/timeline').then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) {
          status.textContent = 'HTTP ' + r.status + ': ' + (body && body.message ? body.message : '');
          document.getElementById('timeline-sections').replaceChildren();
          document.getElementById('timeline-chart').replaceChildren();
          return;
        }
        status.textContent = body.events.length + ' events for order ' + body.orderId;
        renderSections(body);
        renderChart(body.events);
      });
    }).catch(function (error) { status.textContent = 'failed: ' + error.message; });
  }

  document.getElementById('timeline-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var id = document.getElementById('order-id').value.trim();
    history.replaceState(null, '', '?order=' + encodeURIComponent(id));
    showTimeline(id);
  });
  loadHealth().catch(function (error) {
    document.getElementById('health-time').textContent = 'failed: ' + error.message;
  });
  var initial = new URLSearchParams(location.search).get('order');
  if (initial) { document.getElementById('order-id').value = initial; showTimeline(initial); }
})();
</script>
</body>
</html>
`;
