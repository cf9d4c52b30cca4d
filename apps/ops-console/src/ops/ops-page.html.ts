import { OPS_CONSOLE_SCRIPT } from './ops-console.script';
import { OPS_PAGE_STYLE } from './ops-page.style';
import { OPS_TIMELINE_SCRIPT } from './ops-timeline.script';

/**
 * The /ops console: one self-contained HTML document with its style and two scripts inline (no
 * build step, no CDN, no subresource a URL with credentials in it could break). The console script (ops-console.script.ts) reads the operator APIs and draws the home
 * page, the lists, the dialogs of the actions and the audit log; the timeline script
 * (ops-timeline.script.ts) draws an order's timeline. All data is written with textContent,
 * never as HTML. The page and its data need the operator token: a browser asks for it (Basic:
 * any user name, the token as password) and sends it with the page's requests itself.
 */
export const OPS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trading pipeline: ops console</title>
<style>${OPS_PAGE_STYLE}</style>
</head>
<body>
<header class="top">
  <h1><a href="#/">Trading pipeline</a></h1>
  <form id="timeline-form" role="search" aria-label="open an order's timeline">
    <label for="order-id">Order id</label>
    <input id="order-id" name="orderId" inputmode="numeric" autocomplete="off" required>
    <button type="submit">Show timeline</button>
  </form>
  <p class="refresh"><span id="updated" role="status">not loaded yet</span>
    <label><input type="checkbox" id="auto-refresh" checked> refresh every 5 s</label></p>
</header>
<nav aria-label="console views">
  <ul id="nav">
    <li><a href="#/">Home</a></li>
    <li><a href="#/orders">Orders</a></li>
    <li><a href="#/dead-rows">Outbox DEAD rows</a></li>
    <li><a href="#/dead-letters">Dead letters</a></li>
    <li><a href="#/gaps">Parked and gaps</a></li>
    <li><a href="#/fulfillments">Stuck fulfillments</a></li>
    <li><a href="#/audit">Audit log</a></li>
  </ul>
</nav>
<main id="view" tabindex="-1">
  <section id="home-view" data-view="home">
    <h2>Overview</h2>
    <div id="figures" class="figures"></div>
    <h3>Pipeline health <small id="health-time"></small></h3>
    <div class="tables">
      <table id="outbox-health">
        <caption>Outbox of each service</caption>
        <thead><tr><th scope="col">service</th><th scope="col">NEW</th><th scope="col">SENDING</th><th scope="col">DEAD</th><th scope="col">oldest unsent</th></tr></thead>
        <tbody></tbody>
      </table>
      <table id="inbox-health">
        <caption>Inbox of each consumer</caption>
        <thead><tr><th scope="col">consumer</th><th scope="col">dead letters</th><th scope="col">parked</th><th scope="col">open gaps</th></tr></thead>
        <tbody></tbody>
      </table>
    </div>
  </section>
  <section id="list-view" data-view="list" hidden>
    <h2 id="list-title">List</h2>
    <div id="list-tools" class="tools"></div>
    <div id="list-body"></div>
  </section>
  <section id="timeline-view" data-view="timeline" hidden>
    <h2 id="timeline-title">Order timeline</h2>
    <div id="timeline-status" role="status"></div>
    <ul id="timeline-sections" class="sections"></ul>
    <div id="timeline-legend" class="legend" aria-label="legend"></div>
    <div class="timeline-layout">
      <div id="timeline-chart"></div>
      <aside id="timeline-details" aria-label="selected step" hidden>
        <h3 id="details-title">Step</h3>
        <dl id="details-list"></dl>
        <button type="button" id="details-close">Close</button>
      </aside>
    </div>
  </section>
</main>
<dialog id="action-dialog" aria-labelledby="action-title">
  <form id="action-form" method="dialog">
    <h2 id="action-title">Action</h2>
    <div id="action-body"></div>
    <div id="action-result" role="status"></div>
    <div class="dialog-buttons">
      <button type="button" id="action-cancel">Cancel</button>
      <button type="submit" id="action-confirm" class="primary">Confirm</button>
    </div>
  </form>
</dialog>
<script>${OPS_TIMELINE_SCRIPT}</script>
<script>${OPS_CONSOLE_SCRIPT}</script>
</body>
</html>
`;
