import { activationExistsAt } from '../contract/at-instant.js'
import type { StoreIndex } from '../store/store-index.js'
import { inTurns } from '../time/turns.js'
import type { EmulatorState } from './emulator-state.js'

/**
 * What the API shows at `nowIso`: the activations created, the entries entered and the participants
 * who had entered by then (participants the store holds without an entry are not counted).
 */
export function countsAt(index: StoreIndex, accounts: readonly string[], nowIso: string): EmulatorState['counts'] {
  let activations = 0
  let entries = 0
  for (const activation of index.activations.values()) {
    if (!activationExistsAt(activation, nowIso)) continue
    activations++
    entries += index.entriesBy(activation.id, nowIso)
  }
  let participants = 0
  for (const account of accounts) participants += index.participantsBy(account, nowIso)
  return { activations, entries, participants }
}

/**
 * Makes in turns what `countsAt(index, accounts, nowIso)` would read at once off a planned world at an
 * instant before its plan's (each activation's skeleton, each account's first entries' times), the
 * event loop having its turns between: what the state's counts wait for over HTTP.
 * @example await countsReady(store.index, accounts, nowIso)
 */
export async function countsReady(index: StoreIndex, accounts: readonly string[], nowIso: string): Promise<void> {
  for (const account of accounts) {
    const steps = index.participantsCountedInSteps(account, nowIso)
    if (steps) await inTurns(steps)
  }
}
