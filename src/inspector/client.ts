// The inspector's script, run by the browser (served as client.js at /__emulator/client.js). It has no
// dependencies and imports nothing: every figure it shows and every change it makes goes through the
// documented admin API under /__emulator, and what it shows of the world comes from
// `GET /__emulator/view/<account>/<API path>`, the API's own answer, never journaled or rate-limited.
export {}

type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any -- what the admin API answers
type Account = {
  name: string
  apiKeys: string[]
  premium: boolean
  rateLimit: { limit: number; windowSeconds: number } | null
}
type ViewName = 'activations' | 'entries' | 'participants'

const ADMIN = '/__emulator'
const TOKEN_KEY = 'activation-emulator-admin-token'
const API_BASE = `${location.origin}${document.body.dataset['basePath'] ?? ''}`
const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector(selector) as T

let accounts: Account[] = []
let clock = { now: Date.now(), frozen: true, readAt: performance.now() }
let token = sessionStorage.getItem(TOKEN_KEY)

/** Says what happened, or what went wrong, in the page's status line. */
function say(text: string, error = false): void {
  const line = $('#message')
  line.textContent = text
  line.classList.toggle('error', error)
}

/**
 * The admin API's answer to a request, as `{ status, body }`. Asked through `POST /__emulator/inspector/answer`,
 * which answers 200 with the admin API's status inside: a browser writes a red console error for every
 * response of 400 or more, and this page's are ordinary (an unknown activation, a rule typed wrong).
 * Asks for the admin token on a 401.
 */
async function answer(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (token) headers['authorization'] = `Bearer ${token}`
  const response = await fetch(`${ADMIN}/inspector/answer`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ method, path, ...(body === undefined ? {} : { body }) }),
  })
  if (!response.ok) throw new Error(`POST ${ADMIN}/inspector/answer: ${response.status}`)
  const answered = (await response.json()) as { status: number; body: Json }
  if (answered.status === 401) {
    const given = prompt('This emulator has an admin token (--admin-token). Token:')
    if (given) {
      token = given
      sessionStorage.setItem(TOKEN_KEY, given)
      return answer(method, path, body)
    }
  }
  return answered
}

/** One admin request's body; its `{"error"}` becomes a thrown Error with that message. */
async function admin(method: string, path: string, body?: unknown): Promise<Json> {
  const { status, body: answered } = await answer(method, path, body)
  if (status >= 400) throw new Error(`${method} ${ADMIN}${path}: ${status} ${answered?.error}`)
  return answered
}

/** Runs an action of the page, and says its error if it fails. */
function act(action: () => Promise<unknown>): void {
  action().catch((error: Error) => say(error.message, true))
}

/** An element with attributes (or properties: `textContent`, `checked`...) and children. */
function el(tag: string, props: Record<string, unknown> = {}, ...children: Array<Node | string>): HTMLElement {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(props)) {
    if (name in node && !name.startsWith('data') && !name.startsWith('aria')) (node as Json)[name] = value
    else node.setAttribute(name, String(value))
  }
  node.append(...children)
  return node
}

const cell = (text: unknown, className = '') => el('td', className ? { className } : {}, String(text ?? ''))
const statusClass = (status: number) => `s${Math.floor(status / 100)}`
const shortTime = (iso: string) => iso.replace('T', ' ').replace(/\.\d{3}Z$/, 'Z')

// ---- the clock ------------------------------------------------------------------------------------

function clockNow(): number {
  return clock.frozen ? clock.now : clock.now + (performance.now() - clock.readAt)
}

function showClock(): void {
  $('#clock-now').textContent = shortTime(new Date(clockNow()).toISOString())
  $('#clock-mode').textContent = clock.frozen ? 'frozen' : 'running'
  $('#clock-toggle').textContent = clock.frozen ? 'Run' : 'Freeze'
}

function tookClock(answer: { now: string; frozen: boolean }): void {
  clock = { now: Date.parse(answer.now), frozen: answer.frozen, readAt: performance.now() }
  showClock()
}

/** Sets, advances, freezes or runs the clock (`POST /__emulator/clock`), then shows the world as it is then. */
async function moveClock(body: Record<string, unknown>, what: string): Promise<void> {
  tookClock(await admin('POST', '/clock', body))
  await refreshView()
  say(`Clock: ${what}; now ${shortTime(new Date(clock.now).toISOString())}`)
}

/** The first instant after now at which an activation starts (`start`) or a running one ends (`end`), over every account. */
async function nextInstant(kind: 'start' | 'end'): Promise<number | null> {
  const now = clockNow()
  let best = Infinity
  for (const account of accounts) {
    let next: string | null = null
    do {
      const query = new URLSearchParams({ state: kind === 'start' ? 'not_started' : 'running', limit: '100' })
      if (next) query.set('next', next)
      const { status, body } = await view(account.name, '/activations/list', query)
      if (status !== 200) break
      for (const a of body.activations) {
        const at = Date.parse(kind === 'start' ? a.startTime.iso : a.endTime.iso)
        if (at > now && at < best) best = at
      }
      next = body.next
    } while (next)
  }
  return best === Infinity ? null : best
}

// ---- accounts -------------------------------------------------------------------------------------

async function loadAccounts(): Promise<void> {
  const answer = await admin('GET', '/accounts')
  const first = accounts.length === 0
  accounts = answer.accounts
  if (first) {
    for (const select of document.querySelectorAll<HTMLSelectElement>('.account-select')) {
      select.replaceChildren(...accounts.map((a) => el('option', { value: a.name }, a.name)))
    }
  }
  const rows = answer.accounts.map((a: Json) => {
    const premium = el('input', { type: 'checkbox', checked: a.premium, 'aria-label': `premium for ${a.name}` })
    premium.addEventListener('change', () =>
      act(async () => {
        await admin('PATCH', `/accounts/${encodeURIComponent(a.name)}`, {
          premium: (premium as HTMLInputElement).checked,
        })
        await loadAccounts()
        say(`Account ${a.name}: premium ${(premium as HTMLInputElement).checked ? 'on' : 'off'}`)
      }),
    )
    const limit = el('input', {
      type: 'number',
      min: '1',
      value: a.rateLimit?.limit ?? '',
      'aria-label': `rate limit of ${a.name}: requests`,
    }) as HTMLInputElement
    const windowSeconds = el('input', {
      type: 'number',
      min: '1',
      value: a.rateLimit?.windowSeconds ?? 60,
      'aria-label': `rate limit of ${a.name}: window in seconds`,
    }) as HTMLInputElement
    const setLimit = (rateLimit: unknown, what: string) =>
      act(async () => {
        await admin('PATCH', `/accounts/${encodeURIComponent(a.name)}`, { rateLimit })
        await loadAccounts()
        say(`Account ${a.name}: ${what}`)
      })
    const set = el('button', { type: 'button' }, 'Set')
    set.addEventListener('click', () =>
      setLimit(
        { limit: Number(limit.value), windowSeconds: Number(windowSeconds.value) },
        `rate limit ${limit.value} per ${windowSeconds.value} s`,
      ),
    )
    const clear = el('button', { type: 'button' }, 'Clear')
    clear.addEventListener('click', () => setLimit(null, 'no rate limit'))
    const left = a.windows
      ? a.windows
          .map(
            (w: Json) =>
              `${w.key}: ${w.remaining} left${w.resetInSeconds === null ? '' : `, resets in ${w.resetInSeconds} s`}`,
          )
          .join('; ')
      : 'no rate limit'
    return el(
      'tr',
      { 'data-account': a.name },
      cell(a.name),
      cell(a.apiKeys.join(', ')),
      el('td', {}, el('label', {}, premium, ' premium')),
      el('td', {}, limit, ' per ', windowSeconds, ' s ', set, ' ', clear),
      cell(left, 'left'),
    )
  })
  // A row a person is typing a limit in keeps its fields; only what is left in its window is new.
  const table = $('#accounts')
  const typing = document.activeElement instanceof HTMLInputElement && document.activeElement.type === 'number'
  const focused = typing ? [...table.children].find((row) => row.contains(document.activeElement)) : undefined
  const name = focused?.getAttribute('data-account')
  const fresh = rows.find((row: HTMLElement) => row.dataset['account'] === name)
  if (focused && fresh) {
    focused.querySelector('td.left')!.replaceWith(fresh.querySelector('td.left')!)
    // The others are replaced where they are: moving the focused row would take its focus away.
    for (const row of rows as HTMLElement[]) {
      if (row !== fresh)
        table.querySelector(`tr[data-account="${CSS.escape(row.dataset['account'] ?? '')}"]`)?.replaceWith(row)
    }
  } else table.replaceChildren(...rows)
}

// ---- the world, through the API's own answers -----------------------------------------------------

/** The API's answer to `path?query` for an account, through `GET /__emulator/view/...`: never journaled, never limited. */
async function view(account: string, path: string, query: URLSearchParams): Promise<{ status: number; body: Json }> {
  const search = query.toString()
  return answer('GET', `/view/${encodeURIComponent(account)}${path}${search ? `?${search}` : ''}`)
}

/** The curl line that asks the API itself for the same data. */
function curlOf(account: string, path: string, query: URLSearchParams): string {
  const key = accounts.find((a) => a.name === account)?.apiKeys[0] ?? '<key>'
  const search = query.toString().replaceAll('%5B%5D', '[]')
  return `curl -g -H 'Authorization: Api-Key ${key}' '${API_BASE}${path}${search ? `?${search}` : ''}'`
}

/** Each browsing view's request and its cursors: `next` for the following page, `page` its number. */
const pages: Record<ViewName, { next: string | null; page: number; cursor: string | null }> = {
  activations: { next: null, page: 1, cursor: null },
  entries: { next: null, page: 1, cursor: null },
  participants: { next: null, page: 1, cursor: null },
}

/** A browsing form's request: the account, the API path and the query its fields make (empty fields left out). */
function requestOf(name: ViewName): { account: string; path: string; query: URLSearchParams } {
  const form = $<HTMLFormElement>(`#${name}-form`)
  const query = new URLSearchParams()
  let account = ''
  let path = name === 'participants' ? '/experience/participants' : '/activations/list'
  for (const field of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')) {
    if (field.name === 'account') account = field.value
    else if (field.name === 'id') path = `/activations/${encodeURIComponent(field.value.trim())}`
    else if (field instanceof HTMLSelectElement && field.multiple) {
      for (const option of field.selectedOptions) query.append(field.name, option.value)
    } else if (field.value !== '') query.set(field.name, field.value)
  }
  const cursor = pages[name].cursor
  if (cursor) query.set('next', cursor)
  return { account, path, query }
}

function stateAt(activation: Json, now: number): string {
  if (now < Date.parse(activation.startTime.iso)) return 'not_started'
  return now < Date.parse(activation.endTime.iso) ? 'running' : 'ended'
}

/** Asks for the view's current page and shows it, with its curl line and pager; the status line was about the page before. */
async function showPage(name: ViewName): Promise<void> {
  say('')
  const { account, path, query } = requestOf(name)
  $(`#${name}-curl`).textContent = curlOf(account, path, query)
  const { status, body } = await view(account, path, query)
  const tbody = $(`#${name}`)
  const state = pages[name]
  if (status !== 200) {
    state.next = null
    // The caption names the activation shown: none is, now.
    if (name === 'entries') $('#entries-activation').textContent = ''
    tbody.replaceChildren(
      el('tr', {}, el('td', { colSpan: 6, className: `status ${statusClass(status)}` }, `${status}: ${body.error}`)),
    )
  } else if (name === 'activations') {
    const now = clockNow()
    tbody.replaceChildren(
      ...body.activations.map((a: Json) => {
        const open = el('button', { type: 'button', title: 'Show its entries' }, a.id)
        open.addEventListener('click', () => act(() => openEntries(account, a.id)))
        return el(
          'tr',
          { 'data-id': a.id },
          el('td', {}, open),
          cell(a.subtype ? `${a.type} (${a.subtype})` : a.type),
          cell(stateAt(a, now), 'state'),
          cell(a.title, 'wrap'),
          cell(shortTime(a.startTime.iso)),
          cell(shortTime(a.endTime.iso)),
        )
      }),
    )
  } else if (name === 'entries') {
    const a = body.activation
    $('#entries-activation').textContent = `${a.id}: ${a.title} (${a.type}, ${stateAt(a, clockNow())})`
    tbody.replaceChildren(
      ...body.entries.map((e: Json) => {
        const { id, enteredAt, email, ...rest } = e
        return el(
          'tr',
          { 'data-id': id },
          cell(id),
          cell(enteredAt ? shortTime(enteredAt.iso) : ''),
          cell(email),
          cell(JSON.stringify(rest).slice(0, 160), 'wrap'),
        )
      }),
    )
  } else {
    tbody.replaceChildren(
      ...body.participants.map((p: Json) =>
        el(
          'tr',
          { 'data-id': p.id },
          cell(p.id),
          cell(p.email),
          cell([p.firstName, p.lastName].filter(Boolean).join(' ')),
          cell(p.firstEnteredAt ? shortTime(p.firstEnteredAt.iso) : ''),
          cell(p.activationsEntered?.length ?? ''),
        ),
      ),
    )
  }
  if (status === 200 && tbody.children.length === 0) {
    tbody.replaceChildren(el('tr', {}, el('td', { colSpan: 6, className: 'muted' }, `No ${name} on this page`)))
  }
  state.next = status === 200 ? body.next : null
  $(`#${name}-page`).textContent = status === 200 ? `page ${state.page}${state.next ? '' : ', the last'}` : ''
  ;($(`[data-next="${name}"]`) as HTMLButtonElement).disabled = state.next === null
}

async function openEntries(account: string, id: string): Promise<void> {
  const form = $<HTMLFormElement>('#entries-form')
  ;(form.elements.namedItem('account') as HTMLSelectElement).value = account
  ;(form.elements.namedItem('id') as HTMLInputElement).value = id
  Object.assign(pages.entries, { cursor: null, page: 1 })
  await go('entries')
}

// ---- the journal, live ----------------------------------------------------------------------------

const journalRows = new Map<number, Json>()
const JOURNAL_ROWS = 500

function addJournalRow(r: Json): void {
  journalRows.set(r.seq, r)
  const query = new URLSearchParams()
  for (const [name, values] of Object.entries(r.query as Record<string, string[]>))
    for (const v of values) query.append(name, v)
  const search = query.toString()
  const show = el('button', { type: 'button', title: 'Show the response' }, String(r.seq))
  show.addEventListener('click', () => act(() => showResponse(r)))
  const row = el(
    'tr',
    { 'data-seq': r.seq },
    el('td', {}, show),
    el(
      'td',
      { className: 'status' },
      el('span', { className: statusClass(r.status) }, r.status === 0 ? '0 dropped' : String(r.status)),
    ),
    cell(r.method),
    cell(`${r.path}${search ? `?${decodeURIComponent(search)}` : ''}`, 'wrap'),
    cell(r.key ?? '—'),
    cell(r.durationMs.toFixed(1)),
    cell(shortTime(r.at)),
    cell(r.fault ?? ''),
  )
  const body = $('#journal')
  body.prepend(row)
  while (body.children.length > JOURNAL_ROWS) body.lastElementChild?.remove()
  // A request to an endpoint may have spent a key's window or been counted by a fault rule.
  if (r.endpoint && current === 'accounts') reloadAccounts()
  if (r.endpoint && current === 'faults') reloadFaults()
}

/**
 * Runs `load` now, or once more when the run under way ends: a burst of journal events (a client's
 * polling, the stream's first 500 rows) makes one or two loads at a time, never a queue of them.
 */
function coalesced(load: () => Promise<void>): () => void {
  let running = false
  let again = false
  const run = (): void => {
    running = true
    again = false
    load()
      .catch((error: Error) => say(error.message, true))
      .finally(() => {
        running = false
        if (again) run()
      })
  }
  return () => {
    if (running) again = true
    else run()
  }
}

const reloadAccounts = coalesced(() => loadAccounts())
const reloadFaults = coalesced(() => loadFaults())

/** What a journaled request was answered: an error's own `{"error"}`, or for a 200 the same request asked again now. */
async function showResponse(r: Json): Promise<void> {
  let text: string
  if (r.status === 0) text = `The connection was dropped by the fault rule ${r.fault}: no response.`
  else if (r.error !== undefined) text = JSON.stringify({ error: r.error }, null, 2)
  else if (r.account) {
    const query = new URLSearchParams()
    for (const [name, values] of Object.entries(r.query as Record<string, string[]>))
      for (const v of values) query.append(name, v)
    const { status, body } = await view(r.account, r.path, query)
    text = `${status}, asked again now (GET ${ADMIN}/view/${r.account}${r.path}):\n${JSON.stringify(body, null, 2)}`
  } else text = `${r.status}: no body kept`
  $('#response-title').hidden = false
  $('#response-title').textContent = `Response to #${r.seq} ${r.method} ${r.path}: ${r.status}`
  const pre = $('#response')
  pre.hidden = false
  pre.textContent = text
}

/**
 * Reads `GET /__emulator/requests/stream` (server-sent events) through fetch, which can send the admin
 * token; reconnects. Each connection starts the table again from the stream's last 500 requests, with
 * no `Last-Event-ID`: while the page was away the journal may have been cleared or reset, and rows kept
 * from before would show requests the journal no longer has.
 */
async function followJournal(): Promise<void> {
  const headers: Record<string, string> = { accept: 'text/event-stream' }
  if (token) headers['authorization'] = `Bearer ${token}`
  try {
    const response = await fetch(`${ADMIN}/requests/stream?limit=${JOURNAL_ROWS}`, { headers })
    if (!response.ok || !response.body) throw new Error(`journal stream: ${response.status}`)
    clearJournal()
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffered = ''
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffered += read.value
      let end: number
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const event = buffered.slice(0, end)
        buffered = buffered.slice(end + 2)
        const type = /^event: (.*)$/m.exec(event)?.[1]
        const data = /^data: (.*)$/m.exec(event)?.[1]
        if (type === 'clear') clearJournal()
        else if (type === 'request' && data) addJournalRow(JSON.parse(data))
      }
    }
  } catch {
    // The server went away or restarted: try again shortly.
  }
  setTimeout(() => void followJournal(), 2000)
}

/** Empties the journal's table, and the response shown of a request it had. */
function clearJournal(): void {
  journalRows.clear()
  $('#journal').replaceChildren()
  $('#response-title').hidden = true
  $('#response').hidden = true
}

// ---- fault rules ----------------------------------------------------------------------------------

async function loadFaults(): Promise<void> {
  const { faults } = await admin('GET', '/faults')
  $('#faults').replaceChildren(
    ...faults.map((f: Json) => {
      const remove = el('button', { type: 'button', 'aria-label': `Remove the rule ${f.id}` }, 'Remove')
      remove.addEventListener('click', () =>
        act(async () => {
          await admin('DELETE', `/faults/${encodeURIComponent(f.id)}`)
          await loadFaults()
          say(`Removed the rule ${f.id}`)
        }),
      )
      // The admin API's rule (src/fault-rules.ts's FaultRule): what it does not have is null.
      const appliesTo = [f.endpoint, f.key !== null ? `key ${f.key}` : '', f.after ? `after ${f.after}` : '']
        .filter(Boolean)
        .join(', ')
      const effect =
        f.status !== null
          ? `status ${f.status}${f.error !== null ? ` "${f.error}"` : ''}`
          : f.drop !== null
            ? `drop ${f.drop}`
            : `delay ${f.delay.min === f.delay.max ? f.delay.min : `${f.delay.min} to ${f.delay.max}`} ms`
      const often =
        [
          f.times === null ? '' : f.times === 1 ? 'once' : `${f.times} times`,
          f.probability === null ? '' : `p ${f.probability}`,
        ]
          .filter(Boolean)
          .join(', ') || 'every time'
      return el(
        'tr',
        { 'data-rule': f.id },
        cell(f.id),
        cell(appliesTo),
        cell(effect),
        cell(f.spent ? `${often} (spent)` : often),
        cell(f.matched),
        cell(f.fired),
        el('td', {}, remove),
      )
    }),
  )
}

/** The rule the form describes, as `POST /__emulator/faults` takes it. */
function ruleOfForm(form: HTMLFormElement): Record<string, unknown> {
  const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim()
  const rule: Record<string, unknown> = { endpoint: value('endpoint') }
  if (value('key')) rule['key'] = value('key')
  if (value('after')) rule['after'] = Number(value('after'))
  const effect = value('effect')
  if (effect === 'status') {
    rule['status'] = Number(value('status'))
    if (value('error')) rule['error'] = value('error')
  } else if (effect === 'delay') rule['delay'] = /^\d+$/.test(value('delay')) ? Number(value('delay')) : value('delay')
  else rule['drop'] = value('drop')
  if (value('times')) rule['times'] = Number(value('times'))
  if (value('probability')) rule['probability'] = Number(value('probability'))
  return rule
}

// ---- views ----------------------------------------------------------------------------------------

let current = 'accounts'

async function refreshView(): Promise<void> {
  if (current === 'accounts') await loadAccounts()
  else if (current === 'faults') await loadFaults()
  else if (current === 'activations' || current === 'entries' || current === 'participants') {
    if (current !== 'entries' || $<HTMLInputElement>('#entries-form [name=id]').value) await showPage(current)
  }
}

/** Shows a view, as its tab, a link, Back or a typed address asks; the status line was about the view left. */
async function select(name: string): Promise<void> {
  if (name !== current) say('')
  current = name
  for (const tab of document.querySelectorAll<HTMLButtonElement>('[role=tab]')) {
    const on = tab.dataset['view'] === name
    tab.setAttribute('aria-selected', String(on))
    tab.tabIndex = on ? 0 : -1
    $(`#view-${tab.dataset['view']}`).hidden = !on
  }
  if (location.hash !== `#${name}`) history.replaceState(null, '', `#${name}`)
  await refreshView()
}

/** Goes to a view as a link would: a new entry in the history, so that Back comes back here. */
async function go(name: string): Promise<void> {
  if (location.hash !== `#${name}`) history.pushState(null, '', `#${name}`)
  await select(name)
}

/** The view the address names, or the accounts. */
const viewOfAddress = () => {
  const name = location.hash.slice(1)
  return document.querySelector(`[role=tab][data-view="${CSS.escape(name)}"]`) ? name : 'accounts'
}

function wire(): void {
  const tabs = [...document.querySelectorAll<HTMLButtonElement>('[role=tab]')]
  for (const tab of tabs) {
    tab.addEventListener('click', () => act(() => go(tab.dataset['view']!)))
    // Arrow keys move between tabs, as in any tab list.
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
      if (!step) return
      const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length]!
      next.focus()
      act(() => go(next.dataset['view']!))
    })
  }
  // Back, Forward, a link or an address typed: the view follows (each fires one of the two, or both).
  for (const type of ['hashchange', 'popstate']) {
    window.addEventListener(type, () => {
      const name = viewOfAddress()
      if (name !== current) act(() => select(name))
    })
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-advance]')) {
    button.addEventListener('click', () =>
      act(() => moveClock({ advance: button.dataset['advance'] }, `advanced ${button.dataset['advance']}`)),
    )
  }
  for (const kind of ['start', 'end'] as const) {
    $(`#next-${kind}`).addEventListener('click', () =>
      act(async () => {
        const at = await nextInstant(kind)
        if (at === null)
          say(kind === 'start' ? 'No activation starts after now' : 'No running activation ends after now')
        else await moveClock({ set: new Date(at).toISOString() }, `set to the next ${kind}`)
      }),
    )
  }
  $('#clock-toggle').addEventListener('click', () =>
    act(() => moveClock({ freeze: !clock.frozen }, clock.frozen ? 'running' : 'frozen')),
  )
  $('#reset').addEventListener('click', () =>
    act(async () => {
      const state = await admin('POST', '/reset')
      tookClock(state.clock)
      await refreshView()
      say('Reset: the world, accounts, clock, fault rules and journal are back to the start')
    }),
  )
  for (const name of ['activations', 'entries', 'participants'] as const) {
    $(`#${name}-form`).addEventListener('submit', (event) => {
      event.preventDefault()
      Object.assign(pages[name], { cursor: null, page: 1 })
      act(() => showPage(name))
    })
    $(`[data-first="${name}"]`).addEventListener('click', () => {
      Object.assign(pages[name], { cursor: null, page: 1 })
      act(() => showPage(name))
    })
    $(`[data-next="${name}"]`).addEventListener('click', () => {
      const state = pages[name]
      if (state.next === null) return
      Object.assign(state, { cursor: state.next, page: state.page + 1 })
      act(() => showPage(name))
    })
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('.copy')) {
    button.addEventListener('click', () =>
      act(async () => {
        await navigator.clipboard.writeText($(`#${button.dataset['copy']}`).textContent ?? '')
        say('Copied the curl line')
      }),
    )
  }
  $('#fault-form').addEventListener('submit', (event) => {
    event.preventDefault()
    act(async () => {
      const rule = await admin('POST', '/faults', ruleOfForm(event.target as HTMLFormElement))
      await loadFaults()
      say(`Added the rule ${rule.id}`)
    })
  })
  $('#faults-clear').addEventListener('click', () =>
    act(async () => {
      await admin('DELETE', '/faults')
      await loadFaults()
      say('Removed every rule')
    }),
  )
  $('#journal-clear').addEventListener('click', () => act(() => admin('DELETE', '/requests')))
}

async function start(): Promise<void> {
  wire()
  const state = await admin('GET', '/state')
  $('#scenario').textContent = `${state.scenario}, seed ${state.seed}`
  tookClock(state.clock)
  await loadAccounts()
  setInterval(showClock, 1000)
  // What others change (a test, curl: the clock, the rules) shows within 5 s; what requests change, at
  // once. Not the accounts: their table has fields a person may be typing in.
  setInterval(() => {
    act(async () => tookClock(await admin('GET', '/clock')))
    if (current === 'faults') reloadFaults()
  }, 5000)
  void followJournal()
  await select(viewOfAddress())
}

act(start)
