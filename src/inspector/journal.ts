import { ADMIN, admin, answeredBody, readWorld, view, withToken, type Json } from './api.js'
import { bodyDifference } from './body-diff.js'
import { clockNow } from './clock.js'
import { $, act, cell, el } from './dom.js'
import { shortTime, statusClass } from './format.js'
import { reloadAccounts, reloadFaults } from './reload.js'
import { currentView } from './tabs.js'
import { scope } from './world.js'

// The journal's tab: every API request, live, newest first; a request's number shows its response as
// answered, and the same request asked now.

const JOURNAL_ROWS = 500

/** A journaled request's query, as the URL's search parameters. */
function queryOf(r: Json): URLSearchParams {
  const query = new URLSearchParams()
  for (const [name, values] of Object.entries(r.query as Record<string, string[]>))
    for (const v of values) query.append(name, v)
  return query
}

/** A journaled request's path and query, as the journal shows it (`/activations/list?limit=5`). */
function pathOf(r: Json): string {
  const search = queryOf(r).toString()
  return `${r.path}${search ? `?${decodeURIComponent(search)}` : ''}`
}

function addJournalRow(r: Json): void {
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
    cell(pathOf(r), 'wrap'),
    cell(r.key ?? '—'),
    cell(r.durationMs.toFixed(1)),
    cell(shortTime(r.at)),
    cell(r.fault ?? ''),
  )
  const body = $('#journal')
  body.prepend(row)
  while (body.children.length > JOURNAL_ROWS) body.lastElementChild?.remove()
  // A request to an endpoint may have spent a key's window or been counted by a fault rule.
  if (r.endpoint && currentView() === 'accounts') reloadAccounts()
  if (r.endpoint && currentView() === 'faults') reloadFaults()
}

/**
 * What a journaled request was answered: an error's own `{"error"}`; for a 200, its status, instant and
 * page's `next` and its body as the journal kept it (or why it is kept no longer), and beside it the same
 * request asked again now, with a line that says whether the two bodies differ, and where.
 */
async function showResponse(r: Json): Promise<void> {
  let answered = ''
  let text: string
  let now: { title: string; text: string; compare: string } | undefined
  if (r.status === 0) text = `The connection was dropped by the fault rule ${r.fault}: no response.`
  else if (r.error !== undefined) text = JSON.stringify({ error: r.error }, null, 2)
  else if (r.account) {
    answered = `Answered ${r.status} at ${shortTime(r.at)} (clock)${r.next === undefined ? '' : `, next ${r.next}`}:`
    const [kept, asked] = await Promise.all([answeredBody(r.seq), view(r.account, r.path, queryOf(r))])
    text = kept.status === 200 ? JSON.stringify(kept.body, null, 2) : String(kept.body?.error)
    const at = shortTime(new Date(clockNow()).toISOString())
    now = {
      title: `The same request asked again now, at ${at} (GET ${ADMIN}${scope}/view/${r.account}${r.path}): ${asked.status}`,
      text: JSON.stringify(asked.body, null, 2),
      compare:
        kept.status === 200
          ? bodyDifference(kept.body, asked.body)
          : 'The body asked now is not compared: the one answered is not kept.',
    }
  } else text = `${r.status}: no body kept`
  $('#response-title').hidden = false
  $('#response-title').textContent = `Response to #${r.seq} ${r.method} ${pathOf(r)}: ${r.status}`
  shown('#response-answered', answered)
  shown('#response', text)
  shown('#response-compare', now?.compare ?? '')
  shown('#response-now-title', now?.title ?? '')
  shown('#response-now', now?.text ?? '')
}

/** Shows `text` in the element `selector` names, or hides it when there is none. */
function shown(selector: string, text: string): void {
  const element = $(selector)
  element.hidden = text === ''
  element.textContent = text
}

/**
 * Reads `GET /__emulator/requests/stream` (server-sent events; a sandbox's
 * `/__emulator/sandboxes/<id>/requests/stream`) through fetch, which can send the admin token;
 * reconnects, until the sandbox viewed is gone (its stream ends with it). Each connection starts the
 * table again from the stream's last 500 requests, with no `Last-Event-ID`: while the page was away the
 * journal may have been cleared or reset, and rows kept from before would show requests the journal no
 * longer has.
 */
export async function followJournal(): Promise<void> {
  try {
    // A sandbox's stream is not asked for once the sandbox is gone: its 404 would be a console error.
    if ((await readWorld()) === null) return
    const headers = withToken({ accept: 'text/event-stream' })
    const response = await fetch(`${ADMIN}${scope}/requests/stream?limit=${JOURNAL_ROWS}`, { headers })
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
  $('#journal').replaceChildren()
  for (const part of ['title', 'answered', 'compare', 'now-title', 'now']) $(`#response-${part}`).hidden = true
  $('#response').hidden = true
}

/** The journal's Clear button: `DELETE /__emulator/requests` (the stream then says `clear`). */
export function wireJournal(): void {
  $('#journal-clear').addEventListener('click', () => act(() => admin('DELETE', '/requests')))
}
