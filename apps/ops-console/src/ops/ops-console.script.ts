import { OPS_ACTIONS_SCRIPT } from './ops-actions.script';
import { OPS_LISTS_SCRIPT } from './ops-lists.script';

/**
 * The console's script: routing between views (the URL's hash), the HTTP helper, the home page,
 * auto-refresh and "updated N s ago". The lists and the actions are in their own scripts.
 * Requests use URLs built from `location.origin`, never relative to the page: a page opened as
 * http://ops:TOKEN@host/ops has its credentials in its own URL, and fetch refuses a URL with
 * credentials in it; the browser's Basic credentials go with the request all the same.
 */
export const OPS_CONSOLE_SCRIPT = `
(function () {
  'use strict';
  var ops = window.Ops = window.Ops || {};
  var STUCK_AFTER_MS = new URLSearchParams(location.search).get('stuckAfterMs') || '60000';
  ops.stuckAfterMs = STUCK_AFTER_MS;
  ops.services = {
    'order-service': '',
    'fulfillment-service': '/ops/services/fulfillment-service',
    'accounting-service': '/ops/services/accounting-service'
  };
  ops.outboxServices = ['order-service', 'fulfillment-service'];
  ops.inboxServices = ['fulfillment-service', 'accounting-service'];

  ops.api = function (path, options) {
    options = options || {};
    var init = { method: options.method || 'GET', credentials: 'same-origin',
      headers: { accept: 'application/json' } };
    if (options.body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    return fetch(new URL(path, location.origin).href, init).then(function (r) {
      return r.text().then(function (text) {
        var body = null;
        try { body = text ? JSON.parse(text) : null; } catch (e) { body = { message: text }; }
        return { status: r.status, ok: r.ok, body: body };
      });
    });
  };
  ops.json = function (path) {
    return ops.api(path).then(function (r) {
      if (!r.ok) throw new Error('HTTP ' + r.status + (r.body && r.body.message ? ': ' + r.body.message : ''));
      return r.body;
    });
  };
  ops.el = function (tag, attrs, content) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] !== undefined && attrs[k] !== null && attrs[k] !== false) node.setAttribute(k, attrs[k]);
    });
    [].concat(content === undefined ? [] : content).forEach(function (c) {
      node.appendChild(typeof c === 'object' && c !== null ? c : document.createTextNode(String(c)));
    });
    return node;
  };
  ops.age = function (iso) {
    if (!iso) return '';
    var s = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000));
    if (s < 90) return s + ' s';
    if (s < 5400) return Math.round(s / 60) + ' min';
    if (s < 172800) return Math.round(s / 3600) + ' h';
    return Math.round(s / 86400) + ' d';
  };
  ops.utc = function (iso) {
    return iso ? iso.replace('T', ' ').replace(/\\.\\d+Z$/, '').replace(/Z$/, '') + ' UTC' : '';
  };
  ops.ms = function (ms) {
    if (ms < 1000) return ms + ' ms';
    if (ms < 90000) return (ms / 1000).toFixed(1) + ' s';
    return Math.round(ms / 60000) + ' min';
  };
  ops.table = function (caption, columns, rows, rowAttrs) {
    var head = ops.el('tr', {}, columns.map(function (c) {
      return ops.el('th', { scope: 'col', class: c.num ? 'num' : null }, c.title);
    }));
    var body = rows.map(function (row) {
      return ops.el('tr', rowAttrs ? rowAttrs(row) : {}, columns.map(function (c) {
        var v = c.render(row);
        return ops.el('td', { class: (c.num ? 'num ' : '') + (c.cls ? c.cls(row) : '') || null }, v);
      }));
    });
    return ops.el('table', {}, [ops.el('caption', {}, caption), ops.el('thead', {}, head),
      ops.el('tbody', {}, body)]);
  };
  ops.empty = function (text) { return ops.el('p', { class: 'empty' }, text); };

  var lastUpdated = null;
  ops.updated = function () { lastUpdated = new Date(); tick(); };
  function tick() {
    var node = document.getElementById('updated');
    if (!lastUpdated) return;
    var at = lastUpdated.toISOString().slice(11, 19);
    node.textContent = 'updated ' + Math.round((Date.now() - lastUpdated.getTime()) / 1000) +
      ' s ago (' + at + ' UTC)';
  }

  function figure(testId, href, n, label, badWhen) {
    var cls = 'figure ' + (n === null ? '' : badWhen(n) ? 'bad' : 'ok');
    return ops.el('a', { class: cls, href: href, 'data-testid': testId },
      [ops.el('span', { class: 'n' }, n === null ? '?' : n), ops.el('span', { class: 'label' }, label)]);
  }
  function healthCell(value, bad, testId, href) {
    var td = ops.el('td', { class: 'num' + (bad ? ' bad' : ''), 'data-testid': testId });
    td.appendChild(href ? ops.el('a', { href: href }, value) : document.createTextNode(String(value)));
    return td;
  }
  function unavailableRow(name, columns, error) {
    return ops.el('tr', { 'data-service': name }, [ops.el('th', { scope: 'row' }, name),
      ops.el('td', { colspan: String(columns), class: 'unavailable' }, 'unavailable: ' + error)]);
  }

  function loadHome() {
    var orders = ops.json('/ops/orders?status=stuck&limit=500&stuckAfterMs=' + STUCK_AFTER_MS)
      .then(function (l) { return l.length; }, function () { return null; });
    var failed = ops.json('/ops/orders?status=failed&limit=500')
      .then(function (l) { return l.length; }, function () { return null; });
    var fulfillments = ops.json(ops.services['fulfillment-service'] + '/fulfillments/stats')
      .then(function (s) { return s.stuck; }, function () { return null; });
    return Promise.all([ops.json('/ops/pipeline'), orders, failed, fulfillments]).then(function (all) {
      var health = all[0];
      document.getElementById('health-time').textContent = 'at ' + ops.utc(health.generatedAt);
      var figures = [
        figure('figure-stuck-orders', '#/orders?status=stuck', all[1], 'stuck orders', function (n) { return n > 0; }),
        figure('figure-failed-orders', '#/orders?status=failed', all[2], 'failed payments', function () { return false; })
      ];
      var outbox = document.querySelector('#outbox-health tbody');
      outbox.replaceChildren();
      Object.keys(health.outbox).forEach(function (name) {
        var s = health.outbox[name];
        if (s.status !== 'ok') { outbox.appendChild(unavailableRow(name, 4, s.error)); return; }
        figures.push(figure('figure-dead-rows-' + name, '#/dead-rows', s.data.dead,
          'DEAD outbox rows, ' + name, function (n) { return n > 0; }));
        outbox.appendChild(ops.el('tr', { 'data-service': name }, [ops.el('th', { scope: 'row' }, name),
          healthCell(s.data.backlog.NEW, false, 'outbox-new'),
          healthCell(s.data.backlog.SENDING, false, 'outbox-sending'),
          healthCell(s.data.dead, s.data.dead > 0, 'outbox-dead', '#/dead-rows'),
          healthCell(ops.ms(s.data.oldestUnsentAgeMs), false, 'outbox-oldest')]));
      });
      var inbox = document.querySelector('#inbox-health tbody');
      inbox.replaceChildren();
      Object.keys(health.inbox).forEach(function (name) {
        var s = health.inbox[name];
        if (s.status !== 'ok') { inbox.appendChild(unavailableRow(name, 3, s.error)); return; }
        var dlq = s.data.deadLetterTopicMessages;
        figures.push(figure('figure-dead-letters-' + name, '#/dead-letters', dlq,
          'dead letters, ' + name, function (n) { return n > 0; }));
        figures.push(figure('figure-gaps-' + name, '#/gaps', s.data.openGaps.length,
          'open gaps (' + s.data.parkedNow + ' parked), ' + name, function (n) { return n > 0; }));
        inbox.appendChild(ops.el('tr', { 'data-service': name }, [ops.el('th', { scope: 'row' }, name),
          healthCell(dlq === null ? 'unknown' : dlq, dlq !== 0, 'dlq', '#/dead-letters'),
          healthCell(s.data.parkedNow, s.data.parkedNow > 0, 'parked', '#/gaps'),
          healthCell(s.data.openGaps.length, s.data.openGaps.length > 0, 'open-gaps', '#/gaps')]));
      });
      figures.push(figure('figure-stuck-fulfillments', '#/fulfillments', all[3],
        'stuck fulfillments', function (n) { return n > 0; }));
      document.getElementById('figures').replaceChildren.apply(document.getElementById('figures'), figures);
    });
  }

  function route() {
    var hash = location.hash.replace(/^#\\/?/, '');
    var q = hash.indexOf('?');
    var name = (q === -1 ? hash : hash.slice(0, q)) || 'home';
    var params = new URLSearchParams(q === -1 ? '' : hash.slice(q + 1));
    var parts = name.split('/');
    return { name: parts[0], arg: parts[1], params: params };
  }
  ops.route = route;

  function show(viewName) {
    ['home', 'list', 'timeline'].forEach(function (v) {
      document.getElementById(v + '-view').hidden = v !== viewName;
    });
  }

  function load(quiet) {
    var r = route();
    document.querySelectorAll('#nav a').forEach(function (a) {
      var target = a.getAttribute('href').replace(/^#\\/?/, '') || 'home';
      if (target === r.name) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    });
    var done;
    if (r.name === 'home') { show('home'); done = loadHome(); }
    else if (r.name === 'timeline') { show('timeline'); done = quiet ? null : ops.timeline.show(r.arg); }
    else if (ops.lists[r.name]) { show('list'); done = ops.lists[r.name](r.params, quiet); }
    else { location.hash = '#/'; return; }
    if (done) {
      done.then(ops.updated, function (error) {
        document.getElementById('updated').textContent = 'update failed: ' + error.message;
      });
    }
  }
  ops.reload = function () { load(true); };

  window.addEventListener('hashchange', function () { load(false); });
  document.getElementById('timeline-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var id = document.getElementById('order-id').value.trim();
    if (!id) return;
    var target = '#/timeline/' + encodeURIComponent(id);
    if (location.hash === target) load(false); else location.hash = target;
  });
  setInterval(tick, 1000);
  setInterval(function () {
    var dialog = document.getElementById('action-dialog');
    if (document.getElementById('auto-refresh').checked && !dialog.open) load(true);
  }, 5000);

  ${OPS_LISTS_SCRIPT}
  ${OPS_ACTIONS_SCRIPT}

  var initial = new URLSearchParams(location.search).get('order');
  if (initial && !location.hash) location.hash = '#/timeline/' + encodeURIComponent(initial);
  else load(false);
})();
`;
