// @ts-check
/**
 * The timeline view (`#/timeline/<order id>`): an SVG sequence chart with one column per
 * service and one row per event, oldest first. Arrows join each publish to its receives (same
 * event key); the time between rows is shown, long gaps highlighted; a click (or Enter) on a
 * step opens its details in the side panel. Times are UTC and say so. A FAILED step that a
 * later step of the same service followed reads as a retry, not as the end. The pay callbacks
 * whose signature verified (accepted, duplicate, late, refused) are steps of the order-service.
 */
import { api, byId, el, ms, utc } from './ops.js';

/** @typedef {{ at: string, lane: string, kind: string, title: string, detail?: string, eventKey?: string }} TimelineEvent */
var LANES = ['order-service', 'fulfillment-service', 'coupon-provider', 'accounting-service'];
var KINDS = {
  callback: ['#a21caf', 'pay callback (signature verified)'],
  transition: ['#0b57d0', 'state change'],
  outbox: ['#7b3fc4', 'outbox row written'],
  published: ['#1a7f37', 'published to Kafka'],
  dead: ['#b3261e', 'DEAD: relay gave up'],
  inbox: ['#9a6700', 'received by a consumer'],
  duplicate: ['#c2410c', 'duplicate absorbed'],
  skipped: ['#57606a', 'version skipped by an operator'],
  coupon: ['#0f766e', 'coupon'],
  journal: ['#1e40af', 'ledger journal'],
  retry: ['#9a6700', 'failed, then retried'],
};
var LONG_GAP_MS = 5000;
var SVG = 'http://www.w3.org/2000/svg';

/**
 * An SVG element with attributes and, when given, text.
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {string | number} [text]
 * @returns {SVGElement}
 */
function svg(tag, attrs, text) {
  var node = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = String(text);
  return node;
}
function clock(iso) {
  return iso.slice(11, 23);
}

/** "FAILED then retried": a FAILED transition followed by another of the same lane. */
function readable(events) {
  return events.map(function (e, i) {
    var retried =
      e.kind === 'transition' &&
      / FAILED$/.test(e.title) &&
      events.slice(i + 1).some(function (later) {
        return later.lane === e.lane && later.kind === 'transition';
      });
    return retried
      ? Object.assign({}, e, {
          kind: 'retry',
          title: e.title.replace(/FAILED$/, 'failed, retried'),
          originalKind: 'transition',
        })
      : e;
  });
}

function legend() {
  var box = byId('timeline-legend');
  // Colours through the CSSOM: the page's Content-Security-Policy allows no style attributes.
  var items = Object.keys(KINDS).map(function (k) {
    var swatch = el('i', { 'aria-hidden': 'true' });
    swatch.style.borderColor = KINDS[k][0];
    return el('span', {}, [swatch, KINDS[k][1]]);
  });
  items.push(
    el('span', {}, [
      el('i', { class: 'arrow-swatch', 'aria-hidden': 'true' }),
      'arrow: publish to receive',
    ]),
  );
  items.push(
    el('span', {}, [
      el('i', { class: 'gap-swatch', 'aria-hidden': 'true' }),
      'gap over ' + LONG_GAP_MS / 1000 + ' s',
    ]),
  );
  box.replaceChildren.apply(box, items);
}

function details(e, previous) {
  var panel = byId('timeline-details');
  byId('details-title').textContent = e.title;
  var rows = [
    ['service', e.lane],
    ['kind', (KINDS[e.kind] || [0, e.kind])[1]],
    ['at', utc(e.at)],
  ];
  if (previous)
    rows.push(['after the previous step', ms(Date.parse(e.at) - Date.parse(previous.at))]);
  if (e.eventKey) rows.push(['event key', e.eventKey]);
  if (e.detail) rows.push(['detail', e.detail]);
  if (e.kind === 'retry')
    rows.push([
      'why it is not the end',
      'a later step of ' + e.lane + ' followed: the failure was retried',
    ]);
  var list = byId('details-list');
  list.replaceChildren.apply(
    list,
    rows.flatMap(function (r) {
      return [el('dt', {}, r[0]), el('dd', {}, r[1])];
    }),
  );
  panel.hidden = false;
}

function chart(events) {
  var laneWidth = 250,
    left = 190,
    rowHeight = 36,
    top = 44;
  var width = left + LANES.length * laneWidth + 10;
  var height = top + events.length * rowHeight + 16;
  var root = svg('svg', {
    width: String(width),
    height: String(height),
    viewBox: '0 0 ' + width + ' ' + height,
    role: 'group',
    'aria-label': 'order timeline, ' + events.length + ' steps',
  });
  var defs = svg('defs');
  var marker = svg('marker', {
    id: 'arrow',
    viewBox: '0 0 10 10',
    refX: '9',
    refY: '5',
    markerWidth: '7',
    markerHeight: '7',
    orient: 'auto-start-reverse',
  });
  marker.appendChild(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#4f5863' }));
  defs.appendChild(marker);
  root.appendChild(defs);
  root.appendChild(
    svg(
      'text',
      { x: '8', y: '22', 'font-size': '12', 'font-weight': '600', fill: '#1d2430' },
      'time (UTC)',
    ),
  );
  root.appendChild(
    svg(
      'text',
      { x: '118', y: '22', 'font-size': '12', 'font-weight': '600', fill: '#1d2430' },
      'gap',
    ),
  );
  var center = function (lane) {
    return left + LANES.indexOf(lane) * laneWidth + laneWidth / 2;
  };
  LANES.forEach(function (lane) {
    var x = center(lane);
    root.appendChild(
      svg(
        'text',
        {
          x: String(x),
          y: '22',
          'text-anchor': 'middle',
          'font-weight': '600',
          'font-size': '13',
          fill: '#1d2430',
        },
        lane,
      ),
    );
    root.appendChild(
      svg('line', {
        x1: String(x),
        y1: '32',
        x2: String(x),
        y2: String(height - 8),
        stroke: '#c9ced6',
        'stroke-dasharray': '4 4',
      }),
    );
  });
  var rowOf = function (i) {
    return top + i * rowHeight;
  };
  events.forEach(function (e, i) {
    if (i === 0) return;
    var gap = Date.parse(e.at) - Date.parse(events[i - 1].at);
    var y = rowOf(i);
    if (gap > LONG_GAP_MS) {
      root.appendChild(
        svg('rect', {
          x: '0',
          y: String(y - 2),
          width: String(width),
          height: String(rowHeight),
          fill: '#fdecea',
          class: 'long-gap',
        }),
      );
    }
    root.appendChild(
      svg(
        'text',
        {
          x: '118',
          y: String(y + 19),
          'font-size': '11',
          fill: gap > LONG_GAP_MS ? '#b3261e' : '#4f5863',
          'font-weight': gap > LONG_GAP_MS ? '700' : '400',
          'data-gap-ms': String(gap),
        },
        '+' + ms(gap),
      ),
    );
  });
  var arrows = svg('g', { class: 'arrows', 'aria-hidden': 'true' });
  events.forEach(function (e, i) {
    if (e.kind !== 'published' || !e.eventKey) return;
    events.forEach(function (r, j) {
      if (r.kind !== 'inbox' || r.eventKey !== e.eventKey || r.lane === e.lane) return;
      var x1 = center(e.lane),
        x2 = center(r.lane);
      var dir = x2 > x1 ? 1 : -1;
      var sx = x1 + dir * (laneWidth / 2 - 8),
        ex = x2 - dir * (laneWidth / 2 - 8);
      var sy = rowOf(i) + rowHeight / 2 - 1,
        ey = rowOf(j) + rowHeight / 2 - 1;
      arrows.appendChild(
        svg('path', {
          d: 'M ' + sx + ' ' + sy + ' L ' + ex + ' ' + ey,
          fill: 'none',
          stroke: '#4f5863',
          'stroke-width': '1.2',
          'marker-end': 'url(#arrow)',
          'data-event-key': e.eventKey,
        }),
      );
    });
  });
  events.forEach(function (e, i) {
    var cx = center(e.lane),
      y = rowOf(i);
    var color = (KINDS[e.kind] || ['#4f5863'])[0];
    // The name starts with the visible label, as speech input needs; the time is drawn outside.
    root.appendChild(
      svg('text', { x: '8', y: String(y + 19), 'font-size': '11', fill: '#4f5863' }, clock(e.at)),
    );
    var g = svg('g', {
      'data-kind': e.kind,
      'data-lane': e.lane,
      class: 'timeline-event',
      tabindex: '0',
      role: 'button',
      'aria-label': e.title + ' (' + e.lane + ', ' + clock(e.at) + ' UTC)',
    });
    g.appendChild(svg('title', {}, e.title));
    g.appendChild(
      svg('rect', {
        class: 'box',
        x: String(cx - laneWidth / 2 + 8),
        y: String(y + 3),
        width: String(laneWidth - 16),
        height: String(rowHeight - 8),
        rx: '5',
        fill: '#fff',
        stroke: color,
        'stroke-width': '1.5',
      }),
    );
    g.appendChild(
      svg('rect', {
        x: String(cx - laneWidth / 2 + 8),
        y: String(y + 3),
        width: '6',
        height: String(rowHeight - 8),
        fill: color,
      }),
    );
    var label = svg(
      'text',
      {
        x: String(cx + 3),
        y: String(y + 21),
        'text-anchor': 'middle',
        'font-size': '11.5',
        fill: '#1d2430',
      },
      e.title,
    );
    // A long label is squeezed into its box, never cut: the whole of it stays readable.
    if (e.title.length > 33) {
      label.setAttribute('textLength', String(laneWidth - 34));
      label.setAttribute('lengthAdjust', 'spacingAndGlyphs');
    }
    g.appendChild(label);
    var select = function () {
      root.querySelectorAll('g.selected').forEach(function (s) {
        s.classList.remove('selected');
      });
      g.classList.add('selected');
      details(e, events[i - 1]);
    };
    g.addEventListener('click', select);
    g.addEventListener('keydown', function (/** @type {KeyboardEvent} */ ev) {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        select();
      }
    });
    root.appendChild(g);
  });
  root.insertBefore(arrows, root.querySelector('g.timeline-event'));
  byId('timeline-chart').replaceChildren(root);
}

function sections(timeline) {
  var list = byId('timeline-sections');
  var o = timeline.order;
  var items = [
    el(
      'li',
      { 'data-section': 'order' },
      'order ' +
        o.id +
        ': ' +
        o.status +
        ', ' +
        (o.amount / 100).toFixed(2) +
        ' ' +
        o.currency +
        ', version ' +
        o.version,
    ),
  ];
  ['fulfillment', 'coupon', 'accounting'].forEach(function (name) {
    var s = timeline.sections[name];
    var li = el(
      'li',
      { 'data-section': name, 'data-status': s.status },
      s.status === 'ok' ? name + ': ok' : name + ': unavailable (' + s.error + ')',
    );
    if (s.status !== 'ok') li.className = 'unavailable';
    items.push(li);
  });
  list.replaceChildren.apply(list, items);
}

/**
 * Draws the timeline of an order.
 * @param {string} orderId
 */
export function showTimeline(orderId) {
  var status = byId('timeline-status');
  byId('order-id', HTMLInputElement).value = orderId || '';
  byId('timeline-title').textContent = 'Timeline of order ' + orderId;
  byId('timeline-details').hidden = true;
  status.textContent = 'loading order ' + orderId + '…';
  legend();
  return api('/orders/' + encodeURIComponent(orderId) + '/timeline').then(function (r) {
    if (!r.ok) {
      status.textContent =
        'HTTP ' + r.status + ': ' + (r.body && r.body.message ? r.body.message : '');
      byId('timeline-sections').replaceChildren();
      byId('timeline-chart').replaceChildren();
      return;
    }
    var events = readable(r.body.events);
    status.textContent =
      events.length +
      ' steps for order ' +
      r.body.orderId +
      '; times in UTC; click a step for its details';
    sections(r.body);
    chart(events);
  });
}
byId('details-close').addEventListener('click', function () {
  byId('timeline-details').hidden = true;
});
