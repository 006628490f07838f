import { compareDates, type DateObject } from '../contract/date-object.js'
import type { StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import { compareStrings } from './sorted.js'
import { sortInSteps, sortNumbersInSteps } from './sort-in-steps.js'

/** A participant while a world loads: their entries so far and the earliest; `held` if the index held them before. */
export type LoadingParticipant = {
  participant: StoredParticipant
  /** The participant's account, here so that checking an entry's does not read the participant again. */
  account: string
  entries: StoredEntry[]
  first: DateObject | undefined
  held: boolean
}

/** By first entry, then id: the participants list's order. */
const byFirstEntered = (a: LoadingParticipant, b: LoadingParticipant) =>
  compareDates(a.first as DateObject, b.first as DateObject) || compareStrings(a.participant.id, b.participant.id)

/**
 * Sorts loading participants by first entry, then id, as steps (for `inTurns`: a world's tens of
 * thousands of participants take tens of milliseconds), yielding every `perStep` participants read or
 * moved. The numeric pre-pass does not change the result, only the time: sorted by `ts` first (a
 * number each), then each run of the same second by date and id, the list is in order, and the last
 * pass only confirms it (a list the pre-pass cannot order is sorted whole, in steps too).
 */
export function* sortByFirstEnteredInSteps(list: LoadingParticipant[], perStep: number): Generator<undefined, void> {
  let min = Infinity
  let max = -Infinity
  let integers = true
  for (let i = 0; i < list.length; i++) {
    const ts = ((list[i] as LoadingParticipant).first as DateObject).ts
    integers &&= Number.isInteger(ts)
    if (ts < min) min = ts
    if (ts > max) max = ts
    if ((i + 1) % perStep === 0) yield
  }
  // Each key is (ts - min) * scale + position: unique, and exact while under 2^53.
  const scale = 2 ** Math.ceil(Math.log2(list.length + 1))
  if (list.length > 1 && integers && Number.isSafeInteger((max - min + 1) * scale)) {
    const keys = new Float64Array(list.length)
    for (let i = 0; i < list.length; i++) {
      keys[i] = (((list[i] as LoadingParticipant).first as DateObject).ts - min) * scale + i
      if ((i + 1) % perStep === 0) yield
    }
    yield* sortNumbersInSteps(keys, perStep)
    const unsorted = list.slice()
    for (let i = 0; i < keys.length; i++) {
      list[i] = unsorted[(keys[i] as number) % scale] as LoadingParticipant
      if ((i + 1) % perStep === 0) yield
    }
    yield* sortSameSeconds(list, perStep)
  }
  yield* sortInSteps(list, byFirstEntered, perStep)
}

/** Sorts each run of participants who first entered in the same second (`ts`), in place: a small run at once. */
function* sortSameSeconds(list: LoadingParticipant[], perStep: number): Generator<undefined, void> {
  let from = 0
  for (let i = 1; i <= list.length; i++) {
    const second = ((list[from] as LoadingParticipant).first as DateObject).ts
    if (i < list.length && ((list[i] as LoadingParticipant).first as DateObject).ts === second) continue
    if (i - from > 1) {
      const run = list.slice(from, i)
      if (run.length <= perStep) run.sort(byFirstEntered)
      else yield* sortInSteps(run, byFirstEntered, perStep)
      // The list is this sort's alone while it runs (a loading world's): nothing else writes it between steps.
      // eslint-disable-next-line require-atomic-updates
      for (let k = 0; k < run.length; k++) list[from + k] = run[k] as LoadingParticipant
    }
    from = i
    if (i % perStep === 0) yield
  }
}
