// @ts-check
/**
 * What every view of the console shares: the HTTP helper, building nodes, formatting ages and
 * times, tables. Requests use URLs built from `location.origin`, never relative to the page: a
 * page opened as http://ops:TOKEN@host/ops has its credentials in its own URL, and fetch refuses
 * a URL with credentials in it; the browser's Basic credentials go with the request all the
 * same. Data is always written as text, never as HTML.
 */

/** @typedef {{ status: number, ok: boolean, body: any }} ApiAnswer */
/** @typedef {Record<string, string | number | boolean | null | undefined>} Attributes */
/** @typedef {Node | string | number} Content */

/** How long an unfinished order waits before it counts as stuck (`?stuckAfterMs=` of the page). */
export const stuckAfterMs = new URLSearchParams(location.search).get('stuckAfterMs') || '60000';

/** Where the console reaches each service's operator API: through its own proxy. */
export const services = {
  'order-service': '/ops/services/order-service',
  'fulfillment-service': '/ops/services/fulfillment-service',
  'accounting-service': '/ops/services/accounting-service',
};
/** @typedef {keyof typeof services} ServiceName */

/** @type {ServiceName[]} */
export const outboxServices = ['order-service', 'fulfillment-service'];
/** @type {ServiceName[]} */
export const inboxServices = ['fulfillment-service', 'accounting-service'];

/**
 * Calls the console's API; the answer's body is parsed JSON (or `{ message }` when it is not).
 * @param {string} path
 * @param {{ method?: string, body?: unknown }} [options]
 * @returns {Promise<ApiAnswer>}
 */
export async function api(path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  /** @type {RequestInit} */
  const init = { method: options.method || 'GET', credentials: 'same-origin', headers };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  const response = await fetch(new URL(path, location.origin).href, init);
  const text = await response.text();
  let body;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { message: text };
  }
  return { status: response.status, ok: response.ok, body };
}

/**
 * GETs JSON; an answer other than 2xx is an Error naming the status and the message.
 * @param {string} path
 * @returns {Promise<any>}
 */
export async function json(path) {
  const r = await api(path);
  if (!r.ok) {
    throw new Error('HTTP ' + r.status + (r.body && r.body.message ? ': ' + r.body.message : ''));
  }
  return r.body;
}

/**
 * An element with attributes (null, undefined and false leave one out) and text or nodes in it.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attributes} [attrs]
 * @param {Content | Content[]} [content]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, content = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) {
      node.setAttribute(name, String(value));
    }
  }
  for (const c of Array.isArray(content) ? content : [content]) {
    node.appendChild(typeof c === 'object' && c !== null ? c : document.createTextNode(String(c)));
  }
  return node;
}

/**
 * The element with this id, of the type given; the page always has it (a missing one is a bug
 * of the page).
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{ new (): T, prototype: T }} [type]
 * @returns {T}
 */
export function byId(id, type) {
  const node = document.getElementById(id);
  if (!node || (type && !(node instanceof type))) throw new Error(`the page has no #${id}`);
  return /** @type {T} */ (node);
}

/**
 * How long ago, roughly: "42 s", "3 min", "5 h", "2 d".
 * @param {string | null | undefined} iso
 */
export function age(iso) {
  if (!iso) return '';
  const s = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000));
  if (s < 90) return s + ' s';
  if (s < 5400) return Math.round(s / 60) + ' min';
  if (s < 172800) return Math.round(s / 3600) + ' h';
  return Math.round(s / 86400) + ' d';
}

/**
 * A time as "2026-12-01 10:00:00 UTC".
 * @param {string | null | undefined} iso
 */
export function utc(iso) {
  return iso
    ? iso
        .replace('T', ' ')
        .replace(/\.\d+Z$/, '')
        .replace(/Z$/, '') + ' UTC'
    : '';
}

/**
 * A duration: "850 ms", "4.2 s", "3 min".
 * @param {number} ms
 */
export function ms(ms) {
  if (ms < 1000) return ms + ' ms';
  if (ms < 90000) return (ms / 1000).toFixed(1) + ' s';
  return Math.round(ms / 60000) + ' min';
}

/**
 * @template T
 * @typedef {{ title: string, num?: boolean, render: (row: T) => Content, cls?: (row: T) => string }} Column
 */

/**
 * A table with a caption, one column per `columns` entry and one row per item.
 * @template T
 * @param {string} caption
 * @param {Column<T>[]} columns
 * @param {T[]} rows
 * @param {(row: T) => Attributes} [rowAttrs]
 */
export function table(caption, columns, rows, rowAttrs) {
  const head = el(
    'tr',
    {},
    columns.map((c) => el('th', { scope: 'col', class: c.num ? 'num' : null }, c.title)),
  );
  const body = rows.map((row) =>
    el(
      'tr',
      rowAttrs ? rowAttrs(row) : {},
      columns.map((c) =>
        el(
          'td',
          { class: (c.num ? 'num ' : '') + (c.cls ? c.cls(row) : '') || null },
          c.render(row),
        ),
      ),
    ),
  );
  return el('table', {}, [
    el('caption', {}, caption),
    el('thead', {}, head),
    el('tbody', {}, body),
  ]);
}

/**
 * A list's "nothing here" line.
 * @param {string} text
 */
export function empty(text) {
  return el('p', { class: 'empty' }, text);
}

/** What the views call back into: set by console.js, which owns routing and refreshing. */
export const hooks = {
  /** Redraws the current view quietly (after an action). */
  reload: () => {},
};
