import type { Activation } from '../src/contract/activation.js'
import { participantExtrasAt } from '../src/contract/at-instant.js'
import { ACTIVATION_KEYS } from '../src/contract/activation.js'
import { ENTRY_KEYS, type Entry } from '../src/contract/entry.js'
import type { Participant } from '../src/contract/participant.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../src/contract/stored-records.js'
import type { StoreIndex } from '../src/store/indexes.js'

// From what the store keeps to exactly what the API sends: the contract's fields, in the spec's
// order, and nothing internal. A field absent from the record (subtype, rank, voidedAt) stays absent.

function pickKeys(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key]
  return out
}

/** The Activation the API sends for a stored activation. */
export function toActivation(activation: StoredActivation): Activation {
  return pickKeys(activation, ACTIVATION_KEYS) as Activation
}

/** The Entry the API sends for a stored entry of an activation. */
export function toEntry(entry: StoredEntry, activation: StoredActivation): Entry {
  return pickKeys(entry, ENTRY_KEYS[activation.type]) as Entry
}

/** The Participant the participants list sends at `nowIso`, with what is derived from their entries up to then. */
export function toParticipant(participant: StoredParticipant, index: StoreIndex, nowIso: string): Participant {
  const firstEnteredAt = index.firstEnteredAt(participant.id)
  if (!firstEnteredAt || firstEnteredAt.iso > nowIso) {
    throw new Error(`Failed to serialize participant ${participant.id}: they have no entry by ${nowIso}`)
  }
  return {
    id: participant.id,
    email: participant.email,
    firstName: participant.firstName,
    lastName: participant.lastName,
    extras: participantExtrasAt(participant, nowIso),
    activationsEntered: index.activationsEntered(participant.id, nowIso),
    firstEnteredAt,
  }
}
