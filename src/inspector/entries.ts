import type { ActivationWithEntries } from '../contract/responses.js'
import { stateOf } from '../contract/state.js'
import { clockNow } from './clock.js'
import { $, cell, el } from './dom.js'
import { clip, shortTime } from './format.js'
import { firstPage } from './pages.js'
import { go } from './tabs.js'

/** The entries tab's caption (the activation shown) and its rows of a page of `GET /activations/:id`. */
export function entryRows(body: ActivationWithEntries): HTMLElement[] {
  const a = body.activation
  $('#entries-activation').textContent = `${a.id}: ${a.title} (${a.type}, ${stateOf(a, clockNow())})`
  return body.entries.map((e) => {
    const { id, enteredAt, email, ...rest } = e
    return el(
      'tr',
      { 'data-id': id },
      cell(id),
      cell(enteredAt ? shortTime(enteredAt.iso) : ''),
      cell(email),
      el('td', { className: 'wrap' }, fieldsOf(rest)),
    )
  })
}

// About two lines of the fields' column at 1280 px: a page of entries stays a table to scan.
const FIELDS_SHOWN_CHARS = 160

/** An entry's other fields: their JSON cut at a field or word, and a disclosure of the whole, pretty-printed. */
function fieldsOf(fields: object): HTMLElement {
  const json = JSON.stringify(fields)
  const whole = el('pre')
  const details = el(
    'details',
    {},
    el('summary', { title: 'Show the whole entry' }, clip(json, FIELDS_SHOWN_CHARS)),
    whole,
  )
  // Pretty-printed when first opened: a page's closed rows cost nothing more.
  details.addEventListener('toggle', () => {
    if (!whole.textContent) whole.textContent = JSON.stringify(fields, null, 2)
  })
  return details
}

/** The entries tab with no activation chosen: says how to choose one, and shows none. */
export function entriesHint(): void {
  $('#entries-activation').textContent = ''
  $('#entries-curl').textContent = ''
  $('#entries-page').textContent = ''
  $<HTMLButtonElement>('[data-next="entries"]').disabled = true
  $('#entries').replaceChildren(
    el(
      'tr',
      {},
      el(
        'td',
        { colSpan: 4, className: 'muted hint' },
        'Choose an activation: type its id (or latest) above and Show, or choose an id in the Activations tab.',
      ),
    ),
  )
}

/** Goes to the entries tab, showing an activation's first page of entries. */
export async function openEntries(account: string, id: string): Promise<void> {
  const form = $<HTMLFormElement>('#entries-form')
  ;(form.elements.namedItem('account') as HTMLSelectElement).value = account
  ;(form.elements.namedItem('id') as HTMLInputElement).value = id
  firstPage('entries')
  await go('entries')
}
