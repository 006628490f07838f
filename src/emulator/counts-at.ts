import { activationExistsAt } from '../contract/at-instant.js'
import type { StoreIndex } from '../store/store-index.js'
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
