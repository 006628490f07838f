import type { Activation } from './contract/activation.js'
import { ACTIVATION_KEYS } from './contract/activation.js'
import { toMillis } from './contract/date-object.js'
import type { State } from './contract/enums.js'
import { ENTRY_KEYS, type Entry } from './contract/entry.js'
import type { Participant } from './contract/participant.js'
import type { StoreIndex } from './store/indexes.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from './store/records.js'

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

/** The Participant the participants list sends, with what is derived from their entries. */
export function toParticipant(participant: StoredParticipant, index: StoreIndex): Participant {
  const firstEnteredAt = index.firstEnteredAt(participant.id)
  if (!firstEnteredAt) throw new Error(`Failed to serialize participant ${participant.id}: they have no entry`)
  return {
    id: participant.id,
    email: participant.email,
    firstName: participant.firstName,
    lastName: participant.lastName,
    extras: participant.extras,
    activationsEntered: index.activationsEntered(participant.id),
    firstEnteredAt,
  }
}

/**
 * The state of an activation at an instant: not started before startTime, running from startTime
 * until endTime, ended from endTime on.
 * @example stateOf(activation, clock.now()) // 'running'
 */
export function stateOf(activation: Pick<Activation, 'startTime' | 'endTime'>, now: number): State {
  if (now < toMillis(activation.startTime)) return 'not_started'
  return now < toMillis(activation.endTime) ? 'running' : 'ended'
}
