// Plain CSS, no framework: a top bar (the clock), tabs, one view at a time; tables scroll sideways on
// a narrow window. Colours of a status by class, with the number always written out.
export const STYLE = `
:root { color-scheme: light; --fg: #1d2430; --muted: #5b6472; --line: #d5dae1; --bg: #f6f7f9; --accent: #1f5fbf;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
* { box-sizing: border-box; }
body { margin: 0; }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .6rem 1rem; background: #fff;
  border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 1; }
h1 { font-size: 1.05rem; margin: 0; }
h1 small { font-weight: normal; color: var(--muted); }
h2 { font-size: 1rem; margin: 1rem 0 .5rem; }
#clock { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
#clock-now { font-variant-numeric: tabular-nums; font-weight: 600; }
.badge { border-radius: 1rem; padding: 0 .5rem; font-size: .8rem; border: 1px solid var(--line); }
nav { display: flex; flex-wrap: wrap; gap: .25rem; padding: .5rem 1rem 0; }
nav button[aria-selected="true"] { background: var(--accent); color: #fff; border-color: var(--accent); }
main { padding: 0 1rem 1rem; }
button, input, select { font: inherit; color: inherit; }
button { background: #fff; border: 1px solid var(--line); border-radius: .3rem; padding: .25rem .65rem; cursor: pointer; }
button:hover { border-color: var(--accent); }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 1px; }
input, select { border: 1px solid var(--line); border-radius: .3rem; padding: .2rem .4rem; background: #fff; max-width: 100%; }
input[type=number] { width: 6.5rem; }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: .75rem 0; }
form.filters label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); gap: .1rem; }
.scroll { overflow-x: auto; background: #fff; border: 1px solid var(--line); border-radius: .3rem; }
table { border-collapse: collapse; width: 100%; font-size: .85rem; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; white-space: nowrap; }
td.wrap { white-space: normal; min-width: 16rem; }
td.wrap summary { cursor: pointer; overflow-wrap: anywhere; } td.wrap pre { margin: .3rem 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
table.figures { width: auto; } table.figures th { width: 9rem; }
th { background: #eef1f5; font-weight: 600; }
.curl { display: flex; gap: .5rem; align-items: center; margin: .5rem 0; }
.curl code { flex: 1; overflow-x: auto; white-space: nowrap; background: #fff; border: 1px solid var(--line); padding: .3rem .5rem; border-radius: .3rem; font-size: .8rem; }
.pager { display: flex; gap: .5rem; align-items: center; margin: .5rem 0; color: var(--muted); }
.s2 { color: #0b6b2e; background: #e3f5e9; } .s3 { color: #2b4a8b; background: #e6edfa; }
.s4 { color: #8a4b00; background: #fdf0dc; } .s5 { color: #a11a1a; background: #fbe4e4; } .s0 { color: #fff; background: #5b6472; }
td.status span { border-radius: .25rem; padding: 0 .35rem; font-weight: 600; }
pre { background: #fff; border: 1px solid var(--line); border-radius: .3rem; padding: .5rem; overflow: auto; max-height: 22rem; font-size: .8rem; }
#response-sides { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 24rem), 1fr)); gap: 0 1rem; }
#response-sides > div:not(:has(:not([hidden]))) { display: none; }
#response-sides p { margin: 0 0 .3rem; overflow-wrap: anywhere; }
#message { margin: .5rem 1rem; min-height: 1.4em; }
#message.error { color: #a11a1a; font-weight: 600; }
.muted { color: var(--muted); }
body.in-sandbox header { background: #fff4d6; border-bottom-color: #e0b64a; }
#world { margin: 0; padding: .15rem .6rem; border-radius: .3rem; background: #ffe7a3; }
#world-gone { color: #a11a1a; font-weight: 600; }
body.gone #clock, body.gone nav, body.gone #message, body.gone main { display: none; }
@media (max-width: 700px) { header { position: static; } input[type=number] { width: 5rem; } }
`
