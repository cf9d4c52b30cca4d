/** The console's CSS: readable on a laptop, contrast at WCAG AA, no web fonts. */
export const OPS_PAGE_STYLE = `
  :root { --ink: #1d2430; --muted: #4f5863; --line: #d5d9e0; --bg: #f5f6f8; --card: #fff;
    --accent: #0b57d0; --bad: #b3261e; --warn: #7a4f00; --ok: #1a7f37; }
  * { box-sizing: border-box; }
  body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: var(--ink); background: var(--bg); }
  a { color: var(--accent); }
  header.top { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: center;
    padding: .8rem 1.5rem; background: #102a43; color: #fff; }
  header.top h1 { font-size: 1.2rem; margin: 0; }
  header.top h1 a { color: #fff; text-decoration: none; }
  header.top label { color: #fff; }
  header.top .refresh { margin: 0 0 0 auto; display: flex; gap: 1rem; align-items: center; }
  nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; margin: 0;
    padding: .4rem 1.5rem; background: #fff; border-bottom: 1px solid var(--line); }
  nav a { display: inline-block; padding: .35rem .75rem; border-radius: 6px; text-decoration: none; }
  nav a[aria-current="page"] { background: #e3ecfa; color: #0a3d91; font-weight: 600; }
  main { padding: 1rem 1.5rem 3rem; outline: none; }
  h2 { font-size: 1.15rem; margin: .5rem 0 1rem; }
  h3 { font-size: 1rem; margin: 1.5rem 0 .5rem; }
  form { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
  input, select, textarea { font: inherit; padding: .3rem .45rem; border: 1px solid #8a939e; border-radius: 4px; }
  #order-id { width: 9rem; }
  button { font: inherit; padding: .3rem .8rem; border: 1px solid #8a939e; border-radius: 4px;
    background: #fff; color: var(--ink); cursor: pointer; }
  button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
  button.danger { background: var(--bad); border-color: var(--bad); color: #fff; }
  button:disabled { opacity: .6; cursor: default; }
  .figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: .75rem; }
  .figure { display: block; background: var(--card); border: 1px solid var(--line); border-radius: 8px;
    padding: .7rem .9rem; text-decoration: none; color: var(--ink); }
  .figure .n { display: block; font-size: 1.8rem; font-weight: 650; }
  .figure .label { color: var(--muted); }
  .figure.bad { border-left: 5px solid var(--bad); }
  .figure.bad .n { color: var(--bad); }
  .figure.ok .n { color: var(--ok); }
  .tables { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
  table { border-collapse: collapse; background: var(--card); }
  caption { text-align: left; font-weight: 600; padding: .3rem 0; }
  th, td { border: 1px solid var(--line); padding: .35rem .6rem; text-align: left; vertical-align: top; }
  th { background: #eef1f5; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
  .bad { color: var(--bad); font-weight: 600; }
  .unavailable { color: var(--warn); }
  .tools { margin-bottom: .75rem; }
  .chips { display: flex; gap: .4rem; flex-wrap: wrap; }
  .chips a { padding: .2rem .7rem; border: 1px solid var(--line); border-radius: 999px; background: #fff;
    text-decoration: none; }
  .chips a[aria-current="true"] { background: #0a3d91; border-color: #0a3d91; color: #fff; }
  .preview { font-family: ui-monospace, monospace; font-size: 12px; max-width: 32rem;
    white-space: pre-wrap; word-break: break-all; color: #333b45; }
  .service-block { margin-bottom: 1.5rem; }
  .service-block table + button { margin-top: .5rem; }
  .empty { color: var(--muted); font-style: italic; }
  .sections { padding-left: 1.2rem; }
  .legend { display: flex; flex-wrap: wrap; gap: .4rem 1rem; margin: .5rem 0; }
  .legend span { display: inline-flex; align-items: center; gap: .35rem; }
  .legend i { width: 14px; height: 14px; border-radius: 3px; border: 2px solid; display: inline-block; }
  .timeline-layout { display: flex; gap: 1rem; align-items: flex-start; }
  #timeline-chart { background: #fff; border: 1px solid var(--line); overflow-x: auto; flex: 1 1 auto; }
  #timeline-chart g.timeline-event { cursor: pointer; }
  #timeline-chart g.timeline-event:focus { outline: none; }
  #timeline-chart g.timeline-event:focus rect.box, #timeline-chart g.selected rect.box { stroke-width: 3; }
  #timeline-details { flex: 0 0 20rem; background: #fff; border: 1px solid var(--line); border-radius: 8px;
    padding: .75rem 1rem; position: sticky; top: 1rem; }
  #timeline-details dt { font-weight: 600; margin-top: .4rem; }
  #timeline-details dd { margin: 0; word-break: break-word; }
  dialog { border: 1px solid var(--line); border-radius: 10px; padding: 1.2rem 1.4rem; max-width: 44rem; width: 92vw; }
  dialog::backdrop { background: rgba(16, 42, 67, .45); }
  dialog form { display: block; }
  dialog label { display: block; margin: .5rem 0 .2rem; font-weight: 600; }
  dialog textarea { width: 100%; min-height: 4rem; }
  #action-result { margin: .75rem 0; }
  #action-result pre { background: #f1f3f6; padding: .5rem; max-height: 14rem; overflow: auto; }
  .dialog-buttons { display: flex; gap: .5rem; justify-content: flex-end; margin-top: 1rem; }
`;
