import { STATES } from '../contract/enums.js'
import { dateFrom, isObject, itemsOf } from './recorded-fields.js'
import { pagesFor, type Recording } from './recording.js'

// When a recorded world stands: the instant that agrees with every record and activation state a
// recording holds, so that the states and dates it serves are the ones recorded.

/**
 * The instant a recording is served at: its `serverDate` when the recorded states allow it, else the
 * earliest instant every record and state allows (nothing recorded happened after it). Between the
 * two, no recorded page can tell.
 */
export function recordedInstant(recording: Recording): string {
  let low = ''
  let high = '\uffff'
  const later = (iso: unknown) => {
    if (typeof iso === 'string' && iso > low) low = iso
  }
  for (const account of recording.accounts) {
    const activations = itemsOf(account.activations, 'activations')
    const state = new Map<string, string>()
    for (const s of STATES)
      for (const a of itemsOf(pagesFor(account.states, s), 'activations')) state.set(String(a.id), s)
    for (const a of activations) {
      const start = dateFrom(a.startTime)?.iso
      const end = dateFrom(a.endTime)?.iso
      later(dateFrom(a.createdAt)?.iso)
      const updated = dateFrom(a.updatedAt)?.iso
      if (updated !== dateFrom(a.createdAt)?.iso) later(updated)
      const s = state.get(String(a.id))
      if (s === 'running' || s === 'ended') later(start)
      if (s === 'ended') later(end)
      if (s === 'not_started' && start && start <= high) high = start
      if (s === 'running' && end && end <= high) high = end
    }
    for (const pages of Object.values(account.entries)) {
      for (const e of itemsOf(pages, 'entries')) {
        later(dateFrom(e.enteredAt)?.iso)
        later(dateFrom(e.voidedAt)?.iso)
      }
    }
    for (const p of itemsOf(account.participants, 'participants')) {
      for (const x of Array.isArray(p.extras) ? (p.extras as unknown[]) : [])
        if (isObject(x)) later(dateFrom(x.answeredAt)?.iso)
    }
  }
  if (!low) low = recording.startedAt
  const server = recording.serverDate
  return server && server >= low && server < high ? server : low
}
