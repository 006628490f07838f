import { accountList } from './accounts.js'
import { activationRows } from './activations.js'
import { view } from './api.js'
import { $, act, el, say } from './dom.js'
import { entryRows } from './entries.js'
import { statusClass } from './format.js'
import { participantRows } from './participants.js'
import { firstPage, pages, type ViewName } from './pages.js'

// The three browsing tabs (activations, entries, participants): a form of the API's filters, the curl
// line that asks the API the same, a page of the answer, and a pager.

const API_BASE = `${location.origin}${document.body.dataset['basePath'] ?? ''}`

/** Each browsing tab's rows of a 200 answer. */
const ROWS = { activations: activationRows, entries: entryRows, participants: participantRows } as const

/** The number of each tab's latest request: an answer to an earlier one, come after it, is not shown. */
const asked: Record<ViewName, number> = { activations: 0, entries: 0, participants: 0 }

/** The curl line that asks the API itself for the same data. */
function curlOf(account: string, path: string, query: URLSearchParams): string {
  const key = accountList().find((a) => a.name === account)?.apiKeys[0] ?? '<key>'
  const search = query.toString().replaceAll('%5B%5D', '[]')
  return `curl -g -H 'Authorization: Api-Key ${key}' '${API_BASE}${path}${search ? `?${search}` : ''}'`
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

/**
 * Asks for the view's current page and shows it, with its curl line and pager, unless the view was asked
 * again meanwhile; the status line was about the page before.
 */
export async function showPage(name: ViewName): Promise<void> {
  say('')
  const { account, path, query } = requestOf(name)
  $(`#${name}-curl`).textContent = curlOf(account, path, query)
  const ask = ++asked[name]
  const { status, body } = await view(account, path, query)
  if (ask !== asked[name]) return
  const tbody = $(`#${name}`)
  const state = pages[name]
  if (status !== 200) {
    state.next = null
    // The caption names the activation shown: none is, now.
    if (name === 'entries') $('#entries-activation').textContent = ''
    tbody.replaceChildren(
      el('tr', {}, el('td', { colSpan: 6, className: `status ${statusClass(status)}` }, `${status}: ${body.error}`)),
    )
  } else tbody.replaceChildren(...ROWS[name](body, account))
  if (status === 200 && tbody.children.length === 0) {
    tbody.replaceChildren(el('tr', {}, el('td', { colSpan: 6, className: 'muted' }, `No ${name} on this page`)))
  }
  state.next = status === 200 ? body.next : null
  $(`#${name}-page`).textContent = status === 200 ? `page ${state.page}${state.next ? '' : ', the last'}` : ''
  $<HTMLButtonElement>(`[data-next="${name}"]`).disabled = state.next === null
}

/** The browsing forms, their pagers and the curl lines' Copy buttons. */
export function wireBrowse(): void {
  for (const name of ['activations', 'entries', 'participants'] as const) {
    $(`#${name}-form`).addEventListener('submit', (event) => {
      event.preventDefault()
      firstPage(name)
      act(() => showPage(name))
    })
    $(`[data-first="${name}"]`).addEventListener('click', () => {
      firstPage(name)
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
}
