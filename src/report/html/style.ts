/* eslint-disable max-len -- one CSS rule a line; the stylesheet's bytes are the page's (its CSP hash) */
/** The page's only stylesheet (inline; the CSP admits it by hash). */
export const STYLE = `
:root { --pass: #1a7f37; --warn: #9a6700; --fail: #cf222e; --skip: #6e7781; --error: #8250df; --line: #d0d7de; --muted: #57606a; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0 auto; max-width: 78rem; padding: 1.5rem; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #fff; }
h1 { font-size: 1.5rem; margin: 0 0 0.75rem; }
h2 { font-size: 1.15rem; margin: 1.75rem 0 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
h4 { margin: 0.75rem 0 0.25rem; font-size: 0.95rem; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.85rem; }
pre { margin: 0; padding: 0.5rem; background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 30rem; overflow: auto; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.untrusted { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.85rem; background: #fff8c5; padding: 0 0.2rem; border-radius: 3px; }
.aborted { border: 2px solid var(--error); padding: 0.5rem 0.75rem; border-radius: 6px; margin: 1rem 0; }
.tiles { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.5rem 0; }
.tile { border: 1px solid var(--line); border-left-width: 6px; border-radius: 6px; padding: 0.4rem 0.9rem; min-width: 7rem; }
.tile .count { display: block; font-size: 1.6rem; font-weight: 600; }
.tile.pass { border-left-color: var(--pass); } .tile.warn { border-left-color: var(--warn); } .tile.fail { border-left-color: var(--fail); }
.tile.skip { border-left-color: var(--skip); } .tile.error { border-left-color: var(--error); }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 0.3rem 0.6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { font-weight: 600; color: var(--muted); }
td.nonzero.fail, td.nonzero.error { color: var(--fail); font-weight: 600; }
td.nonzero.warn { color: var(--warn); font-weight: 600; }
td.zero { color: #afb8c1; }
#filters { position: sticky; top: 0; background: #fff; padding: 0.5rem 0; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; align-items: center; z-index: 1; }
#filters label { white-space: nowrap; }
#filters button { font: inherit; padding: 0.1rem 0.6rem; }
.check { border: 1px solid var(--line); border-left-width: 5px; border-radius: 4px; margin: 0.3rem 0; }
.check[data-status="pass"] { border-left-color: var(--pass); } .check[data-status="warn"] { border-left-color: var(--warn); }
.check[data-status="fail"] { border-left-color: var(--fail); } .check[data-status="skip"] { border-left-color: var(--skip); }
.check[data-status="error"] { border-left-color: var(--error); }
.check > summary { cursor: pointer; padding: 0.3rem 0.6rem; display: flex; flex-wrap: wrap; gap: 0.2rem 0.6rem; align-items: baseline; }
.check:target { outline: 2px solid #0969da; }
.badge { display: inline-block; min-width: 3.2rem; text-align: center; border-radius: 3px; color: #fff; font-size: 0.75rem; font-weight: 600; text-transform: uppercase; padding: 0.05rem 0.3rem; }
.badge.pass { background: var(--pass); } .badge.warn { background: var(--warn); } .badge.fail { background: var(--fail); }
.badge.skip { background: var(--skip); } .badge.error { background: var(--error); }
.keyword { color: var(--muted); font-size: 0.8rem; }
.check-body { padding: 0.5rem 0.75rem 0.75rem; border-top: 1px solid var(--line); }
.message { white-space: pre-wrap; overflow-wrap: anywhere; }
.ev-item { margin: 0.5rem 0; padding-left: 0.5rem; border-left: 3px solid var(--line); }
.ev-title { font-weight: 600; font-size: 0.85rem; }
.ev-label { color: var(--muted); font-size: 0.8rem; margin-top: 0.3rem; }
.truncated { color: var(--warn); font-size: 0.85rem; }
.muted { color: var(--muted); }
#revision-matrix td.cell { text-align: center; font-size: 0.85rem; }
#revision-matrix thead th[data-revision] { text-align: center; white-space: nowrap; }
#revisions .outcome { text-align: left; }
#revision-matrix td.cell a { color: inherit; text-decoration: none; }
#revision-matrix tbody th { font-weight: normal; }
td.cell.pass { color: var(--pass); } td.cell.warn { color: var(--warn); font-weight: 600; }
td.cell.fail { color: var(--fail); font-weight: 600; } td.cell.error { color: var(--error); font-weight: 600; }
td.cell.skip, td.cell.na { color: #afb8c1; }
section.revision { margin-top: 1.5rem; }
section.revision > h2 { font-size: 1.3rem; }
section.area > h3 { font-size: 1rem; margin: 1rem 0 0.4rem; }
#servers th.text, #servers td.text, #findings th.text, #findings td.text { text-align: left; vertical-align: top; }
#servers td, #servers th { vertical-align: top; }
#servers { table-layout: fixed; }
#servers tbody td, #servers tbody th { overflow-wrap: anywhere; }
#servers col.server { width: 14%; } #servers col.transport { width: 8%; } #servers col.revision { width: 9%; }
#servers col.outcome { width: 11%; } #servers col.fails { width: 5%; } #servers col.warns { width: 6%; }
#servers col.depth { width: 14%; } #servers col.seconds { width: 7%; } #servers col.why { width: 26%; }
#servers .badge { min-width: 0; max-width: 100%; overflow-wrap: normal; }
details.hint > summary { cursor: pointer; font-size: 0.85rem; }
details.hint code.flag { white-space: nowrap; overflow-wrap: normal; }
#servers th .muted { font-weight: normal; }
ol.findings { margin: 0.25rem 0; padding-left: 1.5rem; }
ol.findings li { margin: 0.15rem 0; overflow-wrap: anywhere; }
ol.findings a { text-decoration: none; color: inherit; }
details.stderr > summary { cursor: pointer; color: var(--muted); font-size: 0.85rem; }
footer { margin-top: 2rem; color: var(--muted); font-size: 0.85rem; }
`;
