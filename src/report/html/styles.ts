/** The report's stylesheet, inlined so the file opens from disk with no network. */
export const STYLES = `
:root { --fg:#1f2328; --muted:#656d76; --line:#d0d7de; --bg:#fff; --soft:#f6f8fa; --good:#1a7f37; --bad:#cf222e; --warn:#9a6700; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 0 24px 48px; }
details.classes > summary { cursor: pointer; } details.classes > summary h2 { display: inline-block; border: 0; }
h1 { font-size: 22px; margin: 20px 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.muted { color: var(--muted); } .na { color: var(--muted); }
table.variants, table.comparisons, table.sweep { max-width: 100%; }
table.variants th.name, table.comparisons th.name, table.sweep th.name { max-width: 15em; white-space: normal; overflow-wrap: break-word; font-weight: 600; }
p.agrees { color: var(--muted); margin: 2px 0 8px; }
table.variants td .muted, table.comparisons td.effect, table.sweep td { white-space: nowrap; }
th .over { display: block; font-weight: 400; font-size: 11px; color: var(--muted); }
td.better { color: var(--good); font-weight: 600; }
.families h3 { font-size: 14px; margin: 18px 0 2px; } .note { font-size: 12px; margin: 2px 0 4px; }
figure.tradeoff figcaption { max-width: 510px; } figure.sweep { margin: 0; } figure.sweep figcaption { max-width: 880px; }
svg .tick-y { fill: var(--muted); text-anchor: end; } svg .panel-title { font-weight: 600; } svg .legend { fill: var(--fg); }
svg .point-label.grouped { font-style: italic; }
table { border-collapse: collapse; margin: 6px 0; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
thead th { background: var(--soft); font-weight: 600; }
td.good { background: #dafbe1; } td.bad { background: #ffebe9; } td.mixed { background: #fff8c5; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
.charts { display: flex; gap: 32px; flex-wrap: wrap; align-items: flex-start; }
.charts figure { margin: 0; } figcaption { color: var(--muted); font-size: 12px; max-width: 640px; }
svg text { font: 11px system-ui, sans-serif; fill: var(--fg); }
svg .axis { fill: var(--muted); text-anchor: middle; } svg .axis-title { fill: var(--muted); text-anchor: middle; }
svg .grid { stroke: #eaeef2; } svg .row-label { fill: var(--muted); }
.filters { position: sticky; top: 0; background: var(--bg); padding: 8px 0; border-bottom: 1px solid var(--line); z-index: 2; display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
.filters label { font-size: 13px; } .filters select { margin-left: 4px; max-width: 220px; }
section.attempt, g.tick { scroll-margin-top: 90px; }
section.attempt { border: 1px solid var(--line); border-radius: 6px; margin: 12px 0; padding: 8px 10px; }
section.attempt.target { outline: 3px solid #0969da; }
section.attempt header { margin-bottom: 6px; } .permalink { color: var(--muted); text-decoration: none; }
.badge { font-weight: 600; padding: 0 6px; border-radius: 10px; font-size: 12px; }
.badge.solved { background: #dafbe1; color: var(--good); } .badge.failed { background: #ffebe9; color: var(--bad); }
.badge.error { background: #fff8c5; color: var(--warn); } .badge.running { background: #ddf4ff; color: #0969da; }
.why { color: var(--bad); } section.solved .why { color: var(--good); }
.body { display: flex; gap: 12px; align-items: flex-start; }
.chart { flex: 0 0 auto; }
.transcript { flex: 1 1 300px; max-height: 320px; overflow: auto; margin: 0; padding: 4px 8px 4px 40px; background: var(--soft); border-radius: 4px; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.transcript .t { color: var(--muted); } .transcript .ty { color: #8250df; }
.transcript .ev-kill, .transcript .ev-error { color: var(--bad); } .transcript .ev-onset { color: #bc4c00; }
rect.cmd { fill: #afb8c1; } rect.cmd.repro { fill: #8c959f; } rect.cmd.open { fill: #54aeff; }
g.tick line { stroke: #1a7f37; stroke-width: 2; } g.tick circle { fill: #1a7f37; }
g.tick.hung line { stroke: #bc4c00; } g.tick.hung circle { fill: #bc4c00; }
g.tick .hit { fill: transparent; } g.tick { cursor: pointer; } g.tick:hover line, g.tick.selected line { stroke-width: 4; } g.tick:focus { outline: none; } g.tick:focus circle { r: 5; }
g.onset, g.edit, g.verify { pointer-events: visiblePainted; }
g.onset line { stroke: #cf222e; stroke-dasharray: 4 3; stroke-width: 1.5; }
g.kill path { stroke: #cf222e; stroke-width: 2.5; } g.kill text { fill: #cf222e; font-weight: 600; }
g.kill.by-budget path, g.kill.by-harness path { stroke: #9a6700; } g.kill.by-budget text, g.kill.by-harness text { fill: #9a6700; }
g.edit path { fill: #8250df; } g.verify.pass circle { fill: #1a7f37; } g.verify.fail circle { fill: #cf222e; }
.tick-detail { border: 1px solid var(--line); border-radius: 4px; padding: 6px 10px; margin-top: 6px; max-width: 760px; background: #fffdf5; }
.tick-detail h4 { margin: 2px 0; font-size: 13px; } .tick-detail .close { float: right; }
.tick-text { white-space: pre-wrap; word-break: break-word; max-height: 320px; overflow: auto; background: var(--soft); padding: 6px; font-size: 12px; }
.decision { font-weight: 600; }
#live-status { color: #0969da; }
`;
