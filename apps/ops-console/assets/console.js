// @ts-check
/**
 * The console's entry point: routing between views (the URL's hash), the home page,
 * auto-refresh and "updated N s ago". The shared helpers are in ops.js, the lists in lists.js,
 * the actions in actions.js and the timeline in timeline.js.
 */
import { lists } from './lists.js';
import { byId, el, hooks, json, ms, services, stuckAfterMs, utc } from './ops.js';
import { showTimeline } from './timeline.js';

var lastUpdated = null;
function updated() {
  lastUpdated = new Date();
  tick();
}
function tick() {
  var node = byId('updated');
  if (!lastUpdated) return;
  var at = lastUpdated.toISOString().slice(11, 19);
  node.textContent =
    'updated ' +
    Math.round((Date.now() - lastUpdated.getTime()) / 1000) +
    ' s ago (' +
    at +
    ' UTC)';
}

function figure(testId, href, n, label, badWhen) {
  var cls = 'figure ' + (n === null ? '' : badWhen(n) ? 'bad' : 'ok');
  return el('a', { class: cls, href: href, 'data-testid': testId }, [
    el('span', { class: 'n' }, n === null ? '?' : n),
    el('span', { class: 'label' }, label),
  ]);
}
function healthCell(value, bad, testId, href) {
  var td = el('td', { class: 'num' + (bad ? ' bad' : ''), 'data-testid': testId });
  td.appendChild(href ? el('a', { href: href }, value) : document.createTextNode(String(value)));
  return td;
}
function unavailableRow(name, columns, error) {
  return el('tr', { 'data-service': name }, [
    el('th', { scope: 'row' }, name),
    el('td', { colspan: String(columns), class: 'unavailable' }, 'unavailable: ' + error),
  ]);
}

function loadHome() {
  var orders = json('/ops/orders?status=stuck&limit=500&stuckAfterMs=' + stuckAfterMs).then(
    function (l) {
      return l.length;
    },
    function () {
      return null;
    },
  );
  var failed = json('/ops/orders?status=failed&limit=500').then(
    function (l) {
      return l.length;
    },
    function () {
      return null;
    },
  );
  var fulfillments = json(services['fulfillment-service'] + '/fulfillments/stats').then(
    function (s) {
      return s.stuck;
    },
    function () {
      return null;
    },
  );
  return Promise.all([json('/ops/pipeline'), orders, failed, fulfillments]).then(function (all) {
    var health = all[0];
    byId('health-time').textContent = 'at ' + utc(health.generatedAt);
    var figures = [
      figure('figure-stuck-orders', '#/orders?status=stuck', all[1], 'stuck orders', function (n) {
        return n > 0;
      }),
      figure(
        'figure-failed-orders',
        '#/orders?status=failed',
        all[2],
        'failed payments',
        function () {
          return false;
        },
      ),
    ];
    var outbox = byId('outbox-health', HTMLTableElement).tBodies[0];
    outbox.replaceChildren();
    Object.keys(health.outbox).forEach(function (name) {
      var s = health.outbox[name];
      if (s.status !== 'ok') {
        outbox.appendChild(unavailableRow(name, 4, s.error));
        return;
      }
      figures.push(
        figure(
          'figure-dead-rows-' + name,
          '#/dead-rows',
          s.data.dead,
          'DEAD outbox rows, ' + name,
          function (n) {
            return n > 0;
          },
        ),
      );
      outbox.appendChild(
        el('tr', { 'data-service': name }, [
          el('th', { scope: 'row' }, name),
          healthCell(s.data.backlog.NEW, false, 'outbox-new'),
          healthCell(s.data.backlog.SENDING, false, 'outbox-sending'),
          healthCell(s.data.dead, s.data.dead > 0, 'outbox-dead', '#/dead-rows'),
          healthCell(ms(s.data.oldestUnsentAgeMs), false, 'outbox-oldest'),
        ]),
      );
    });
    var inbox = byId('inbox-health', HTMLTableElement).tBodies[0];
    inbox.replaceChildren();
    Object.keys(health.inbox).forEach(function (name) {
      var s = health.inbox[name];
      if (s.status !== 'ok') {
        inbox.appendChild(unavailableRow(name, 3, s.error));
        return;
      }
      var dlq = s.data.deadLettersToHandle;
      figures.push(
        figure(
          'figure-dead-letters-' + name,
          '#/dead-letters',
          dlq,
          'dead letters to handle, ' + name,
          function (n) {
            return n > 0;
          },
        ),
      );
      figures.push(
        figure(
          'figure-gaps-' + name,
          '#/gaps',
          s.data.openGaps.length,
          'open gaps (' + s.data.parkedNow + ' parked), ' + name,
          function (n) {
            return n > 0;
          },
        ),
      );
      inbox.appendChild(
        el('tr', { 'data-service': name }, [
          el('th', { scope: 'row' }, name),
          healthCell(dlq === null ? 'unknown' : dlq, dlq !== 0, 'dlq', '#/dead-letters'),
          healthCell(s.data.parkedNow, s.data.parkedNow > 0, 'parked', '#/gaps'),
          healthCell(s.data.openGaps.length, s.data.openGaps.length > 0, 'open-gaps', '#/gaps'),
        ]),
      );
    });
    figures.push(
      figure(
        'figure-stuck-fulfillments',
        '#/fulfillments',
        all[3],
        'stuck fulfillments',
        function (n) {
          return n > 0;
        },
      ),
    );
    byId('figures').replaceChildren.apply(byId('figures'), figures);
  });
}

function route() {
  var hash = location.hash.replace(/^#\/?/, '');
  var q = hash.indexOf('?');
  var name = (q === -1 ? hash : hash.slice(0, q)) || 'home';
  var params = new URLSearchParams(q === -1 ? '' : hash.slice(q + 1));
  var parts = name.split('/');
  return { name: parts[0], arg: parts[1], params: params };
}

function show(viewName) {
  ['home', 'list', 'timeline'].forEach(function (v) {
    byId(v + '-view').hidden = v !== viewName;
  });
}

function load(quiet) {
  var r = route();
  document.querySelectorAll('#nav a').forEach(function (a) {
    var target = (a.getAttribute('href') || '').replace(/^#\/?/, '') || 'home';
    if (target === r.name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  var done;
  if (r.name === 'home') {
    show('home');
    done = loadHome();
  } else if (r.name === 'timeline') {
    show('timeline');
    done = quiet ? null : showTimeline(r.arg);
  } else if (lists[r.name]) {
    show('list');
    done = lists[r.name](r.params, quiet);
  } else {
    location.hash = '#/';
    return;
  }
  if (done) {
    done.then(updated, function (error) {
      byId('updated').textContent = 'update failed: ' + error.message;
    });
  }
}
hooks.reload = function () {
  load(true);
};

window.addEventListener('hashchange', function () {
  load(false);
});
byId('timeline-form').addEventListener('submit', function (event) {
  event.preventDefault();
  var id = byId('order-id', HTMLInputElement).value.trim();
  if (!id) return;
  var target = '#/timeline/' + encodeURIComponent(id);
  if (location.hash === target) load(false);
  else location.hash = target;
});
setInterval(tick, 1000);
setInterval(function () {
  var dialog = byId('action-dialog', HTMLDialogElement);
  if (byId('auto-refresh', HTMLInputElement).checked && !dialog.open) load(true);
}, 5000);

var initial = new URLSearchParams(location.search).get('order');
if (initial && !location.hash) location.hash = '#/timeline/' + encodeURIComponent(initial);
else load(false);
