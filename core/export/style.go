package export

// stylesheet lays the page out; the colours come from the CSS variables
// that HTML writes before it from Options.
const stylesheet = `* { box-sizing: border-box; }
body { margin: 0; padding: 24px 16px 48px; background: var(--page-bg); color: var(--text);
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
header, main, .branches, footer, details.setup { max-width: 960px; margin: 0 auto; }
h1 { font-size: 1.5em; margin: 0 0 8px; color: var(--accent); }
h2 { font-size: 1.2em; color: var(--accent); }
a { color: var(--accent); }
pre, code { font: 13px/1.45 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
pre { margin: 8px 0; padding: 10px 12px; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
summary { cursor: pointer; color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0 0 16px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
details.setup { background: var(--card-bg); border-radius: 8px; padding: 8px 14px; margin-bottom: 8px; }
details.setup pre { background: var(--page-bg); }
dl.tools dt { font-weight: 600; color: var(--accent); margin-top: 8px; }
dl.tools dd { margin: 0 0 0 16px; }
.msg { background: var(--card-bg); border-radius: 8px; padding: 10px 14px; margin: 12px 0; }
.msg.user { background: var(--user-bg); }
.msg.compaction, .msg.branch-summary, .msg.custom { border-left: 3px solid var(--accent); }
.meta { display: flex; gap: 10px; align-items: baseline; font-size: 0.85em; color: var(--muted); margin-bottom: 4px; }
.meta .who { font-weight: 600; color: var(--accent); }
.meta time { margin-left: auto; }
.label { border: 1px solid var(--accent); border-radius: 4px; padding: 0 6px; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.md > :first-child { margin-top: 0; }
.md > :last-child { margin-bottom: 0; }
.md table { border-collapse: collapse; }
.md th, .md td { border: 1px solid var(--muted); padding: 2px 8px; }
.md blockquote { margin: 0; padding-left: 12px; border-left: 3px solid var(--muted); color: var(--muted); }
.md :not(pre) > code { background: var(--page-bg); padding: 1px 4px; border-radius: 4px; }
.thinking { color: var(--muted); font-style: italic; margin: 6px 0; }
.thinking .preview { font-style: normal; }
.tool { background: var(--tool-bg); border-left: 3px solid var(--muted); border-radius: 6px; padding: 6px 10px; margin: 8px 0; }
.tool.ok { border-left-color: var(--success); }
.tool.error { border-left-color: var(--error); }
.tool-head { overflow-wrap: anywhere; }
.tool-name { font-weight: 600; color: var(--accent); }
.tool-arg { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 13px; }
.tool-state { float: right; font-size: 0.85em; color: var(--muted); }
.tool.ok .tool-state { color: var(--success); }
.tool.error .tool-state { color: var(--error); }
.tool pre { background: var(--page-bg); }
.out.error pre { color: var(--error); }
pre.diff .add { color: var(--diff-added); }
pre.diff .del { color: var(--diff-removed); }
.note, .usage { font-size: 0.85em; color: var(--muted); margin-top: 4px; }
.error { color: var(--error); }
img.image { display: block; max-width: 100%; margin: 8px 0; border-radius: 4px; }
.branches details.branch { margin: 8px 0; }
footer { color: var(--muted); font-size: 0.85em; margin-top: 32px; }
`
