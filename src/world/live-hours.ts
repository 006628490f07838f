import { arrivalTimes } from '../../factories/arrivals.js'
import { toMillis } from '../contract/date-object.js'
import type { StoredActivation } from '../contract/stored-records.js'
import { TYPE_RULES } from '../contract/type-rules.js'
import { deriveSeed, type WorldFakers } from '../time/random.js'

// The live world's calendar, an hour at a time: the events an hour holds (arrivals and the ends of
// ranked activations), drawn from the seed, the activation and the hour alone, and the next hour
// that can hold any, so that the hours in between are skipped.

export const HOUR = 3_600_000

/** Something that happens at an instant: an entry arrives (the `k`th of its activation's hour), or a ranked activation ends. */
export type LiveEvent = { at: number; activationId: string; kind: 'arrival' | 'end'; hour: number; k: number }

/** What drawing the events reads of a live world. */
export type LiveCalendar = {
  seed: number
  /** The instant the world was built at: nothing happens at or before it. */
  builtAt: number
  /** Whether entries arrive. */
  arrivals: boolean
  /** Entries an hour that an activation receives while it runs. */
  rateOf(activation: StoredActivation): number
  fakers: WorldFakers
}

/** Draws the events of an hour, in time order (an activation's at one instant in the order drawn; ends after arrivals). */
export function eventsOfHour(
  hour: number,
  activations: Iterable<StoredActivation>,
  calendar: LiveCalendar,
): LiveEvent[] {
  const from = Math.max(hour * HOUR, calendar.builtAt + 1)
  const to = (hour + 1) * HOUR
  const events: LiveEvent[] = []
  for (const activation of activations) {
    const start = toMillis(activation.startTime)
    const end = toMillis(activation.endTime)
    if (end < from || start >= to) continue
    if (TYPE_RULES[activation.type].ranked && end >= from && end < to) {
      events.push({ at: end, activationId: activation.id, kind: 'end', hour, k: 0 })
    }
    const rate = calendar.arrivals ? calendar.rateOf(activation) : 0
    if (rate <= 0) continue
    calendar.fakers.records.seed(deriveSeed(calendar.seed, 'live', activation.id, hour))
    arrivalTimes(calendar.fakers.records, Math.max(from, start), Math.min(to, end), rate).forEach((at, k) =>
      events.push({ at, activationId: activation.id, kind: 'arrival', hour, k }),
    )
  }
  return events.sort(
    (a, b) =>
      a.at - b.at ||
      (a.kind === b.kind ? 0 : a.kind === 'arrival' ? -1 : 1) ||
      (a.activationId < b.activationId ? -1 : a.activationId > b.activationId ? 1 : 0) ||
      a.k - b.k,
  )
}

/**
 * The first hour after the instant `after` in which an event can be: a ranked activation's end, or
 * (with arrivals on) an arrival in an activation that runs then at a rate; Infinity when none can.
 * A lower bound: that hour's events may turn out to be none, and the search goes on from its end.
 */
export function nextBusyHour(after: number, activations: Iterable<StoredActivation>, calendar: LiveCalendar): number {
  let next = Infinity
  const from = Math.max(after + 1, calendar.builtAt + 1)
  for (const activation of activations) {
    const end = toMillis(activation.endTime)
    if (end < from) continue
    if (TYPE_RULES[activation.type].ranked) next = Math.min(next, Math.floor(end / HOUR))
    if (calendar.arrivals && calendar.rateOf(activation) > 0) {
      next = Math.min(next, Math.floor(Math.max(from, toMillis(activation.startTime)) / HOUR))
    }
  }
  return next
}
