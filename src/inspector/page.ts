import { FILTER_TYPES, STATES } from '../contract/enums.js'
import { LIMIT_MAX } from '../contract/responses.js'
import { STYLE } from './style.js'

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const options = (values: readonly string[], none?: string) =>
  (none === undefined ? '' : `<option value="">${none}</option>`) +
  values.map((v) => `<option value="${v}">${v}</option>`).join('')

/**
 * The inspector's page: markup and style, with the API's base path and the lists the filters offer;
 * everything it shows it asks of the admin API (`client.ts`).
 */
export function inspectorPage(basePath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>activation-emulator inspector</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body data-base-path="${escape(basePath)}">
<header>
  <h1>activation-emulator <small id="scenario"></small></h1>
  <p id="world" role="status" hidden>Sandbox <strong id="world-name"></strong> <span id="world-gone"></span> <button type="button" id="world-back">Back to the host</button></p>
  <section id="clock" aria-label="Clock">
    <span>Clock</span> <output id="clock-now" aria-live="off">…</output> <span id="clock-mode" class="badge"></span>
    <button type="button" data-advance="1h">+1 h</button>
    <button type="button" data-advance="1d">+1 d</button>
    <button type="button" id="next-start" title="Set the clock to the next instant an activation starts">Next start</button>
    <button type="button" id="next-end" title="Set the clock to the next instant a running activation ends">Next end</button>
    <button type="button" id="clock-toggle">Freeze</button>
    <button type="button" id="reset" title="POST /__emulator/reset (a sandbox's own when one is viewed): the world, accounts, clock, rules and journal back to the start">Reset</button>
  </section>
</header>
<nav role="tablist" aria-label="Views">
  <button type="button" role="tab" data-view="overview" aria-controls="view-overview" accesskey="0">Overview</button>
  <button type="button" role="tab" data-view="accounts" aria-controls="view-accounts" accesskey="1">Accounts</button>
  <button type="button" role="tab" data-view="activations" aria-controls="view-activations" accesskey="2">Activations</button>
  <button type="button" role="tab" data-view="entries" aria-controls="view-entries" accesskey="3">Entries</button>
  <button type="button" role="tab" data-view="participants" aria-controls="view-participants" accesskey="4">Participants</button>
  <button type="button" role="tab" data-view="journal" aria-controls="view-journal" accesskey="5">Journal</button>
  <button type="button" role="tab" data-view="faults" aria-controls="view-faults" accesskey="6">Faults</button>
  <button type="button" role="tab" data-view="sandboxes" aria-controls="view-sandboxes" accesskey="7">Sandboxes</button>
  <button type="button" role="tab" data-view="report" aria-controls="view-report" accesskey="8">Report</button>
</nav>
<p id="message" role="status" aria-live="polite"></p>
<main>
  <section id="view-overview" role="tabpanel" aria-label="Overview" hidden>
    <p class="muted">The world's counts (<code>GET /__emulator/state</code>), and its activations by type and state at the clock's instant (every account's <code>GET /activations/list</code>).</p>
    <div class="scroll"><table class="figures"><tbody id="overview"></tbody></table></div>
    <h2>Activations by type and state</h2>
    <div class="scroll"><table><thead><tr><th>type</th>${STATES.map((s) => `<th>${s}</th>`).join('')}</tr></thead>
    <tbody id="overview-types"></tbody></table></div>
  </section>

  <section id="view-accounts" role="tabpanel" aria-label="Accounts" hidden>
    <div class="scroll"><table><thead><tr><th>account</th><th>API keys</th><th>premium</th><th>rate limit</th><th>left in the window</th></tr></thead>
    <tbody id="accounts"></tbody></table></div>
  </section>

  <section id="view-activations" role="tabpanel" aria-label="Activations" hidden>
    <form class="filters" id="activations-form">
      <label>account <select name="account" class="account-select"></select></label>
      <label>state <select name="state">${options(STATES, 'any')}</select></label>
      <label>types[] <select name="types[]" multiple size="3">${options(FILTER_TYPES)}</select></label>
      <label>start_date <input name="start_date" placeholder="YYYY-MM-DD"></label>
      <label>limit <input name="limit" type="number" min="1" max="${LIMIT_MAX.activations}" value="20"></label>
      <button>Show</button>
    </form>
    <div class="curl"><code id="activations-curl"></code><button type="button" class="copy" data-copy="activations-curl">Copy</button></div>
    <div class="scroll"><table><thead><tr><th>id</th><th>type</th><th>state</th><th>title</th><th>starts</th><th>ends</th></tr></thead>
    <tbody id="activations"></tbody></table></div>
    <div class="pager"><button type="button" data-first="activations">First page</button><button type="button" data-next="activations">Next page</button><span id="activations-page"></span></div>
  </section>

  <section id="view-entries" role="tabpanel" aria-label="Entries" hidden>
    <form class="filters" id="entries-form">
      <label>account <select name="account" class="account-select"></select></label>
      <label>activation id <input name="id" required placeholder="an id, or latest"></label>
      <label>is_completed <select name="is_completed"><option value="">any</option><option>1</option><option>0</option></select></label>
      <label>is_winner <select name="is_winner"><option value="">any</option><option>1</option><option>0</option></select></label>
      <label>bracket_round <input name="bracket_round" type="number" min="1"></label>
      <label>bracket_seed <input name="bracket_seed" type="number" min="1"></label>
      <label>start_date <input name="start_date" placeholder="YYYY-MM-DD[THH:mm:ss]"></label>
      <label>limit <input name="limit" type="number" min="1" max="${LIMIT_MAX.entries}" value="20"></label>
      <button>Show</button>
    </form>
    <div class="curl"><code id="entries-curl"></code><button type="button" class="copy" data-copy="entries-curl">Copy</button></div>
    <p id="entries-activation" class="muted"></p>
    <div class="scroll"><table><thead><tr><th>id</th><th>entered</th><th>email</th><th>fields</th></tr></thead>
    <tbody id="entries"></tbody></table></div>
    <div class="pager"><button type="button" data-first="entries">First page</button><button type="button" data-next="entries">Next page</button><span id="entries-page"></span></div>
  </section>

  <section id="view-participants" role="tabpanel" aria-label="Participants" hidden>
    <form class="filters" id="participants-form">
      <label>account <select name="account" class="account-select"></select></label>
      <label>start_date <input name="start_date" placeholder="YYYY-MM-DD"></label>
      <label>end_date <input name="end_date" placeholder="YYYY-MM-DD"></label>
      <label>last_updated_since <input name="last_updated_since" placeholder="YYYY-MM-DD"></label>
      <label>limit <input name="limit" type="number" min="1" max="${LIMIT_MAX.participants}" value="20"></label>
      <button>Show</button>
    </form>
    <div class="curl"><code id="participants-curl"></code><button type="button" class="copy" data-copy="participants-curl">Copy</button></div>
    <div class="scroll"><table><thead><tr><th>id</th><th>email</th><th>name</th><th>first entered</th><th>activations entered</th></tr></thead>
    <tbody id="participants"></tbody></table></div>
    <div class="pager"><button type="button" data-first="participants">First page</button><button type="button" data-next="participants">Next page</button><span id="participants-page"></span></div>
  </section>

  <section id="view-journal" role="tabpanel" aria-label="Journal" hidden>
    <p class="muted">Every API request, live (<code>GET /__emulator/requests/stream</code>). Choose a request's number to see its response. <button type="button" id="journal-clear">Clear the journal</button></p>
    <div class="scroll"><table><thead><tr><th>#</th><th>status</th><th>method</th><th>path</th><th>key</th><th>ms</th><th>at (clock)</th><th>fault</th></tr></thead>
    <tbody id="journal"></tbody></table></div>
    <h2 id="response-title" hidden>Response</h2>
    <p id="response-compare" hidden></p>
    <div id="response-sides">
      <div><p id="response-answered" class="muted" hidden></p><pre id="response" hidden tabindex="0"></pre></div>
      <div><p id="response-now-title" class="muted" hidden></p><pre id="response-now" hidden tabindex="0"></pre></div>
    </div>
  </section>

  <section id="view-faults" role="tabpanel" aria-label="Faults" hidden>
    <div class="scroll"><table><thead><tr><th>id</th><th>applies to</th><th>effect</th><th>how often</th><th>matched</th><th>fired</th><th></th></tr></thead>
    <tbody id="faults"></tbody></table></div>
    <h2>Add a rule</h2>
    <form class="filters" id="fault-form">
      <label>endpoint <select name="endpoint"><option value="any">any</option><option>list</option><option>activation</option><option>latest</option><option>participants</option></select></label>
      <label>key <input name="key" placeholder="any key"></label>
      <label>after <input name="after" type="number" min="0" placeholder="0"></label>
      <label>effect <select name="effect"><option value="status">status</option><option value="delay">delay</option><option value="drop">drop</option></select></label>
      <label>status <input name="status" type="number" min="400" max="599" value="503"></label>
      <label>error <input name="error" value="Service unavailable"></label>
      <label>delay <input name="delay" placeholder="2s, or 500"></label>
      <label>drop <select name="drop"><option>connection</option><option>body</option></select></label>
      <label>times <input name="times" type="number" min="1" placeholder="every time"></label>
      <label>probability <input name="probability" type="number" min="0" max="1" step="0.05" placeholder="1"></label>
      <button>Add the rule</button>
    </form>
    <p><button type="button" id="faults-clear">Remove every rule</button></p>
  </section>

  <section id="view-report" role="tabpanel" aria-label="Report" hidden>
    <p class="muted">The client's report card, read from the journal (<code>GET /__emulator/report</code>): <span id="report-verdict"></span></p>
    <div class="scroll"><table><thead><tr><th>rule</th><th>the client</th><th>kept</th><th>findings</th></tr></thead>
    <tbody id="report-rules"></tbody></table></div>
    <h2>Edge cases</h2>
    <div class="scroll"><table><thead><tr><th>edge case</th><th>what</th><th>met</th><th>requests</th></tr></thead>
    <tbody id="report-edges"></tbody></table></div>
  </section>

  <section id="view-sandboxes" role="tabpanel" aria-label="Sandboxes" hidden>
    <p class="muted">The host's open sandboxes (<code>GET /__emulator/sandboxes</code>): <span id="sandboxes-count"></span>. Times are real time, not a clock's. An id views that sandbox's world in every view. <button type="button" id="sandbox-new">New sandbox</button></p>
    <div class="scroll"><table><thead><tr><th>id</th><th>label</th><th>created</th><th>last used</th><th>expires</th><th>requests</th><th>changes</th><th>API keys</th><th></th></tr></thead>
    <tbody id="sandboxes"></tbody></table></div>
  </section>
</main>
<script type="module" src="client.js"></script>
</body>
</html>
`
}
