// @ts-check
/**
 * The console's lists, one function per view (`#/orders`, `#/dead-rows`, …): each reads its
 * operator routes and draws a table with what an operator needs (error code and text, attempts,
 * source partition and offset, a payload preview, age) and the buttons of its actions. `quiet`
 * (auto-refresh) redraws the rows and leaves the tools alone, so a search being typed is not
 * lost.
 */
import { replay, requeue, skip } from './actions.js';
import {
  age,
  byId,
  el,
  empty,
  inboxServices,
  json,
  outboxServices,
  services,
  stuckAfterMs,
  table,
  utc,
} from './ops.js';

var ORDER_LISTS = ['all', 'stuck', 'paid', 'failed', 'cancelled'];

function frame(view, title, quiet, tools) {
  byId('list-title').textContent = title;
  var box = byId('list-tools');
  if (!quiet || box.getAttribute('data-for') !== view) {
    box.setAttribute('data-for', view);
    box.replaceChildren.apply(box, tools ? [tools] : []);
  }
  return byId('list-body');
}
function fill(body, nodes) {
  body.replaceChildren.apply(body, nodes);
}
function serviceBlock(name, content) {
  return el('div', { class: 'service-block', 'data-service': name }, [el('h3', {}, name), content]);
}
function unavailable(error) {
  return el('p', { class: 'unavailable' }, 'unavailable: ' + error.message);
}
function perService(services, read) {
  return Promise.all(
    services.map(function (name) {
      return read(name).then(
        function (node) {
          return serviceBlock(name, node);
        },
        function (error) {
          return serviceBlock(name, unavailable(error));
        },
      );
    }),
  );
}
function preview(text) {
  return el('div', { class: 'preview' }, text === null ? '' : text);
}

/** @type {Record<string, (params: URLSearchParams, quiet: boolean) => Promise<void>>} */
export const lists = {};
lists.orders = function (params, quiet) {
  var status = params.get('status') || 'all';
  var q = params.get('q') || '';
  var chips = el(
    'div',
    { class: 'chips', role: 'group', 'aria-label': 'order status' },
    ORDER_LISTS.map(function (s) {
      return el(
        'a',
        {
          href: '#/orders?status=' + s + (q ? '&q=' + q : ''),
          'aria-current': s === status ? 'true' : null,
        },
        s,
      );
    }),
  );
  var search = el('form', { id: 'orders-search', role: 'search' }, [
    el('label', { for: 'orders-q' }, 'Search by order id'),
    el('input', { id: 'orders-q', name: 'q', inputmode: 'numeric', value: q, autocomplete: 'off' }),
    el('button', { type: 'submit' }, 'Search'),
  ]);
  search.addEventListener('submit', function (event) {
    event.preventDefault();
    var value = byId('orders-q', HTMLInputElement).value.trim();
    location.hash = '#/orders?status=' + status + (value ? '&q=' + encodeURIComponent(value) : '');
  });
  var body = frame('orders', 'Orders', quiet, el('div', {}, [chips, search]));
  var query =
    '/ops/orders?status=' +
    status +
    '&stuckAfterMs=' +
    stuckAfterMs +
    (q ? '&q=' + encodeURIComponent(q) : '');
  return json(query).then(function (orders) {
    fill(body, [
      orders.length === 0
        ? empty('No ' + status + ' orders.')
        : table(
            orders.length + ' ' + status + ' orders, last changed first',
            [
              {
                title: 'order',
                render: function (o) {
                  return el(
                    'a',
                    { href: '#/timeline/' + o.id, 'aria-label': 'timeline of order ' + o.id },
                    o.id,
                  );
                },
              },
              {
                title: 'status',
                render: function (o) {
                  return o.status;
                },
                cls: function (o) {
                  return o.status === 'PAYMENT_FAILED' ? 'bad' : '';
                },
              },
              {
                title: 'amount',
                num: true,
                render: function (o) {
                  return (o.amount / 100).toFixed(2) + ' ' + o.currency;
                },
              },
              {
                title: 'user',
                render: function (o) {
                  return o.userId;
                },
              },
              {
                title: 'unchanged for',
                num: true,
                render: function (o) {
                  return age(o.updatedAt);
                },
              },
              {
                title: 'created',
                render: function (o) {
                  return utc(o.createdAt);
                },
              },
              {
                title: 'closed because',
                render: function (o) {
                  return o.closeReason || '';
                },
              },
            ],
            orders,
            function (o) {
              return { 'data-order-id': o.id, 'data-status': o.status };
            },
          ),
    ]);
  });
};

/** The filter of the DEAD rows view: what GET /outbox/dead and a requeue both take. */
var DEAD_FILTER = [
  ['eventType', 'Event type'],
  ['aggregateType', 'Aggregate type'],
  ['aggregateId', 'Aggregate id'],
];

function deadFilterForm(filter) {
  var fields = DEAD_FILTER.flatMap(function (f) {
    return [
      el('label', { for: 'dead-' + f[0] }, f[1]),
      el('input', {
        id: 'dead-' + f[0],
        name: f[0],
        value: filter[f[0]] || '',
        autocomplete: 'off',
      }),
    ];
  });
  var form = el(
    'form',
    { id: 'dead-filter', role: 'search', 'aria-label': 'filter DEAD rows' },
    /** @type {HTMLElement[]} */ (fields).concat([
      el('button', { type: 'submit' }, 'Filter'),
      el('a', { href: '#/dead-rows' }, 'clear'),
    ]),
  );
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var query = new URLSearchParams();
    DEAD_FILTER.forEach(function (f) {
      var value = byId('dead-' + f[0], HTMLInputElement).value.trim();
      if (value) query.set(f[0], value);
    });
    location.hash = '#/dead-rows' + (query.toString() ? '?' + query.toString() : '');
  });
  return form;
}

lists['dead-rows'] = function (params, quiet) {
  /** @type {Record<string, string>} */
  var filter = {};
  DEAD_FILTER.forEach(function (f) {
    var v = (params.get(f[0]) || '').trim();
    if (v) filter[f[0]] = v;
  });
  var filtered = Object.keys(filter).length > 0;
  var described = Object.keys(filter)
    .map(function (k) {
      return k + ' ' + filter[k];
    })
    .join(', ');
  var body = frame(
    'dead-rows',
    'Outbox DEAD rows',
    quiet,
    el('div', {}, [
      el(
        'p',
        {},
        'Rows the relay gave up on. Requeue puts them back to NEW, due now; later events of the aggregate follow. ' +
          'Filter them to requeue all that match at once.',
      ),
      deadFilterForm(filter),
    ]),
  );
  var query =
    '/outbox/dead?limit=200' + (filtered ? '&' + new URLSearchParams(filter).toString() : '');
  return perService(outboxServices, function (name) {
    return json(services[name] + query).then(function (rows) {
      if (rows.length === 0)
        return empty(filtered ? 'No DEAD rows match ' + described + '.' : 'No DEAD rows.');
      var listed = rows.length + (rows.length === 200 ? '+' : '');
      var all = filtered
        ? el(
            'button',
            { type: 'button', class: 'danger', 'data-action': 'requeue-matching' },
            'Requeue all ' + listed + ' matching…',
          )
        : el(
            'button',
            { type: 'button', class: 'danger', 'data-action': 'requeue-all' },
            'Requeue all ' + listed + ' DEAD rows…',
          );
      all.addEventListener('click', function () {
        if (filtered)
          requeue(
            name,
            filter,
            'every DEAD row matching ' + described + ' (' + listed + ' listed)',
          );
        else requeue(name, { all: true }, listed + ' DEAD rows');
      });
      return el('div', {}, [
        table(
          rows.length + ' DEAD rows of ' + name + (filtered ? ' matching ' + described : ''),
          [
            {
              title: 'row',
              render: function (r) {
                return r.id;
              },
            },
            {
              title: 'event',
              render: function (r) {
                return r.eventType + ' v' + r.aggregateVersion;
              },
            },
            {
              title: 'aggregate',
              render: function (r) {
                return r.aggregateType + ' ' + r.aggregateId;
              },
            },
            {
              title: 'attempts',
              num: true,
              render: function (r) {
                return r.retryCount;
              },
            },
            {
              title: 'last error',
              cls: function () {
                return 'bad';
              },
              render: function (r) {
                return r.lastError || '';
              },
            },
            {
              title: 'payload',
              render: function (r) {
                return preview(r.payloadPreview);
              },
            },
            {
              title: 'age',
              num: true,
              render: function (r) {
                return age(r.createdAt);
              },
            },
            {
              title: 'action',
              render: function (r) {
                var b = el(
                  'button',
                  { type: 'button', 'aria-label': 'Requeue row ' + r.id },
                  'Requeue…',
                );
                b.addEventListener('click', function () {
                  requeue(name, { ids: [r.id] }, 'row ' + r.id + ' (' + r.eventKey + ')');
                });
                return b;
              },
            },
          ],
          rows,
          function (r) {
            return { 'data-dead-row': r.id };
          },
        ),
        all,
      ]);
    });
  }).then(function (blocks) {
    fill(body, blocks);
  });
};

lists['dead-letters'] = function (params, quiet) {
  var body = frame(
    'dead-letters',
    'Dead letters',
    quiet,
    el(
      'p',
      {},
      "Messages a consumer could not apply. Replay puts one back on the consumer's own retry topic, after a dry run.",
    ),
  );
  return perService(inboxServices, function (name) {
    return json(services[name] + '/inbox/dead-letters').then(function (letters) {
      if (letters.length === 0) return empty('No dead letters.');
      var fresh = letters.filter(function (m) {
        return !m.replayedAt;
      }).length;
      var all = el(
        'button',
        { type: 'button', 'data-action': 'replay-all' },
        'Replay all ' + fresh + ' not yet replayed…',
      );
      all.disabled = fresh === 0;
      all.addEventListener('click', function () {
        replay(name, { all: true }, 'every dead letter not yet replayed');
      });
      return el('div', {}, [
        table(
          letters.length + ' dead letters of ' + name,
          [
            {
              title: 'at',
              render: function (m) {
                return m.partition + ':' + m.offset;
              },
            },
            {
              title: 'event',
              render: function (m) {
                return (m.eventType || '(unknown)') + (m.eventKey ? ' ' + m.eventKey : '');
              },
            },
            {
              title: 'error',
              cls: function () {
                return 'bad';
              },
              render: function (m) {
                return (m.errorCode || '') + (m.error ? ': ' + m.error : '');
              },
            },
            {
              title: 'attempts',
              num: true,
              render: function (m) {
                return m.attempts === null ? '' : m.attempts;
              },
            },
            {
              title: 'source',
              render: function (m) {
                return (
                  (m.sourceTopic || '?') +
                  ' ' +
                  (m.sourcePartition === null ? '?' : m.sourcePartition) +
                  ':' +
                  (m.sourceOffset || '?')
                );
              },
            },
            {
              title: 'payload',
              render: function (m) {
                return preview(m.valuePreview);
              },
            },
            {
              title: 'age',
              num: true,
              render: function (m) {
                return age(m.failedAt);
              },
            },
            {
              title: 'replayed',
              render: function (m) {
                return m.replayedAt ? age(m.replayedAt) + ' ago' : 'no';
              },
            },
            {
              title: 'action',
              render: function (m) {
                var b = el(
                  'button',
                  {
                    type: 'button',
                    'aria-label': 'Replay dead letter ' + m.partition + ':' + m.offset,
                  },
                  'Replay…',
                );
                b.addEventListener('click', function () {
                  replay(
                    name,
                    {
                      messages: [{ partition: m.partition, offset: m.offset }],
                      includeReplayed: true,
                    },
                    'dead letter ' + m.partition + ':' + m.offset,
                  );
                });
                return b;
              },
            },
          ],
          letters,
          function (m) {
            return {
              'data-dead-letter': m.partition + ':' + m.offset,
              'data-replayed': m.replayedAt ? 'yes' : 'no',
            };
          },
        ),
        all,
      ]);
    });
  }).then(function (blocks) {
    fill(body, blocks);
  });
};

lists.gaps = function (params, quiet) {
  var body = frame(
    'gaps',
    'Parked events and open gaps',
    quiet,
    el(
      'p',
      {},
      'An open gap: an aggregate whose next version has not arrived while later ones wait, parked. Skip the missing version only when it will never come.',
    ),
  );
  return perService(inboxServices, function (name) {
    return json(services[name] + '/inbox/stats').then(function (stats) {
      var summary = el(
        'p',
        {},
        stats.parkedNow + ' events parked now; ' + stats.openGaps.length + ' open gaps.',
      );
      if (stats.openGaps.length === 0) return el('div', {}, [summary]);
      return el('div', {}, [
        summary,
        table(
          'open gaps of ' + name,
          [
            {
              title: 'aggregate',
              render: function (g) {
                return g.aggregateType + ' ' + g.aggregateId;
              },
            },
            {
              title: 'last applied',
              num: true,
              render: function (g) {
                return g.lastAppliedVersion === null ? 'none' : g.lastAppliedVersion;
              },
            },
            {
              title: 'missing',
              num: true,
              render: function (g) {
                return (g.lastAppliedVersion || 0) + 1;
              },
            },
            {
              title: 'parked versions',
              render: function (g) {
                return g.parkedVersions.join(', ');
              },
            },
            {
              title: 'waiting for',
              num: true,
              render: function (g) {
                return age(g.oldestParkedAt);
              },
            },
            {
              title: 'action',
              render: function (g) {
                var version = (g.lastAppliedVersion || 0) + 1;
                var b = el(
                  'button',
                  {
                    type: 'button',
                    'aria-label':
                      'Skip version ' + version + ' of ' + g.aggregateType + ' ' + g.aggregateId,
                  },
                  'Skip version ' + version + '…',
                );
                b.addEventListener('click', function () {
                  skip(name, g, version);
                });
                return b;
              },
            },
          ],
          stats.openGaps,
        ),
      ]);
    });
  }).then(function (blocks) {
    fill(body, blocks);
  });
};

lists.fulfillments = function (params, quiet) {
  var body = frame(
    'fulfillments',
    'Stuck fulfillments',
    quiet,
    el('p', {}, 'FAILED fulfillments whose retries are used up: they need a person.'),
  );
  return json(services['fulfillment-service'] + '/fulfillments/stuck').then(function (list) {
    fill(body, [
      list.length === 0
        ? empty('No stuck fulfillments.')
        : table(
            list.length + ' stuck fulfillments',
            [
              {
                title: 'order',
                render: function (f) {
                  return el('a', { href: '#/timeline/' + f.orderId }, f.orderId);
                },
              },
              {
                title: 'status',
                cls: function () {
                  return 'bad';
                },
                render: function (f) {
                  return f.status;
                },
              },
              {
                title: 'attempts',
                num: true,
                render: function (f) {
                  return f.attempts;
                },
              },
              {
                title: 'last error',
                render: function (f) {
                  return f.lastError || '';
                },
              },
              {
                title: 'user',
                render: function (f) {
                  return f.userId;
                },
              },
              {
                title: 'coupon',
                num: true,
                render: function (f) {
                  return f.couponValue + ' ' + f.currency;
                },
              },
            ],
            list,
          ),
    ]);
  });
};

lists.audit = function (params, quiet) {
  var body = frame(
    'audit',
    'Operator audit log',
    quiet,
    el(
      'p',
      {},
      'Every requeue, replay and gap skip taken through the operator API, newest first. Who is the name of the operator token used.',
    ),
  );
  return json('/ops/audit').then(function (audit) {
    var nodes = audit.unavailable.map(function (u) {
      return el('p', { class: 'unavailable' }, u.service + ': unavailable (' + u.error + ')');
    });
    nodes.push(
      audit.records.length === 0
        ? empty('No operator actions yet.')
        : table(
            audit.records.length + ' operator actions',
            [
              {
                title: 'when',
                render: function (a) {
                  return utc(a.at);
                },
              },
              {
                title: 'service',
                render: function (a) {
                  return a.service;
                },
              },
              {
                title: 'action',
                render: function (a) {
                  return a.action;
                },
              },
              {
                title: 'target',
                render: function (a) {
                  return preview(JSON.stringify(a.target));
                },
              },
              {
                title: 'count',
                num: true,
                render: function (a) {
                  return a.count;
                },
              },
              {
                title: 'reason',
                render: function (a) {
                  return a.reason || '';
                },
              },
              {
                title: 'who',
                render: function (a) {
                  return a.who;
                },
              },
            ],
            audit.records,
            function (a) {
              return { 'data-audit-action': a.action, 'data-who': a.who };
            },
          ),
    );
    fill(body, nodes);
  });
};
