import type { ActivationList } from '../contract/responses.js'
import { stateOf } from '../contract/state.js'
import { clockNow } from './clock.js'
import { act, cell, el } from './dom.js'
import { openEntries } from './entries.js'
import { shortTime } from './format.js'

/** The activations tab's rows of a page of `GET /activations/list`: each id opens the activation's entries. */
export function activationRows(body: ActivationList, account: string): HTMLElement[] {
  const now = clockNow()
  return body.activations.map((a) => {
    const open = el('button', { type: 'button', title: 'Show its entries' }, a.id)
    open.addEventListener('click', () => act(() => openEntries(account, a.id)))
    return el(
      'tr',
      { 'data-id': a.id },
      el('td', {}, open),
      cell(a.subtype ? `${a.type} (${a.subtype})` : a.type),
      cell(stateOf(a, now), 'state'),
      cell(a.title, 'wrap'),
      cell(shortTime(a.startTime.iso)),
      cell(shortTime(a.endTime.iso)),
    )
  })
}
