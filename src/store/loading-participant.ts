import { compareDates, type DateObject } from '../contract/date-object.js'
import type { StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import { compareStrings } from './sorted.js'

/** A participant while a world loads: their entries so far and the earliest; `held` if the index held them before. */
export type LoadingParticipant = {
  participant: StoredParticipant
  /** The participant's account, here so that checking an entry's does not read the participant again. */
  account: string
  entries: StoredEntry[]
  first: DateObject | undefined
  held: boolean
}

/**
 * Sorts loading participants by first entry, then id. The numeric pre-pass does not change the
 * result, only the time: sorted by `ts` natively first, the list is nearly in order, and the
 * comparison sort then mostly confirms it (busy: about 150 ms less per load).
 */
export function sortByFirstEntered(list: LoadingParticipant[]): void {
  let min = Infinity
  let max = -Infinity
  let integers = true
  for (const { first } of list) {
    const ts = (first as DateObject).ts
    integers &&= Number.isInteger(ts)
    if (ts < min) min = ts
    if (ts > max) max = ts
  }
  // Each key is (ts - min) * scale + position: unique, and exact while under 2^53.
  const scale = 2 ** Math.ceil(Math.log2(list.length + 1))
  if (list.length > 1 && integers && Number.isSafeInteger((max - min + 1) * scale)) {
    const keys = new Float64Array(list.length)
    for (let i = 0; i < list.length; i++)
      keys[i] = (((list[i] as LoadingParticipant).first as DateObject).ts - min) * scale + i
    keys.sort()
    const unsorted = list.slice()
    for (let i = 0; i < keys.length; i++) list[i] = unsorted[(keys[i] as number) % scale] as LoadingParticipant
  }
  list.sort(
    (a, b) =>
      compareDates(a.first as DateObject, b.first as DateObject) || compareStrings(a.participant.id, b.participant.id),
  )
}
