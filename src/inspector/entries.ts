import type { ActivationWithEntries } from '../contract/responses.js'
import { stateOf } from '../contract/state.js'
import { clockNow } from './clock.js'
import { $, cell, el } from './dom.js'
import { shortTime } from './format.js'
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
      cell(JSON.stringify(rest).slice(0, 160), 'wrap'),
    )
  })
}

/** Goes to the entries tab, showing an activation's first page of entries. */
export async function openEntries(account: string, id: string): Promise<void> {
  const form = $<HTMLFormElement>('#entries-form')
  ;(form.elements.namedItem('account') as HTMLSelectElement).value = account
  ;(form.elements.namedItem('id') as HTMLInputElement).value = id
  firstPage('entries')
  await go('entries')
}
