import type { Activation } from '../src/contract/activation.js'
import { participantExtrasAt } from '../src/contract/at-instant.js'
import { ACTIVATION_KEYS } from '../src/contract/activation.js'
import { ENTRY_KEYS, type Entry } from '../src/contract/entry.js'
import type { Participant } from '../src/contract/participant.js'
import type { Recorded, StoredActivation, StoredEntry, StoredParticipant } from '../src/contract/stored-records.js'
import type { StoreIndex } from '../src/store/store-index.js'

// From what the store keeps to exactly what the API sends: the contract's fields, in the spec's
// order, and nothing internal. A field absent from the record (subtype, rank, voidedAt) stays absent.

function pickKeys(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key]
  return out
}

/**
 * A recorded record as sent: `recorded.as`'s keys in its order, the pinned ones as recorded and the
 * others as made from the record now; then what the record shows now that was not recorded (a contest's
 * rank once the clock passes its end). At the recorded instant this is `recorded.as` itself.
 */
function asRecorded(made: Record<string, unknown>, recorded: Recorded): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  // A recorded key may be any string, `__proto__` too: defined as an own field, never assigned (which would set the prototype).
  const put = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  const pinned = new Set(recorded.pinned)
  for (const key of Object.keys(recorded.as)) {
    if (pinned.has(key)) put(key, recorded.as[key])
    else if (Object.hasOwn(made, key) && made[key] !== undefined) put(key, made[key])
  }
  for (const key of Object.keys(made)) if (!Object.hasOwn(out, key) && !pinned.has(key)) put(key, made[key])
  return out
}

/** The Activation the API sends for a stored activation. */
export function toActivation(activation: StoredActivation): Activation {
  const made = pickKeys(activation, ACTIVATION_KEYS)
  return (activation.recorded ? asRecorded(made, activation.recorded) : made) as Activation
}

/** The Entry the API sends for a stored entry of an activation. */
export function toEntry(entry: StoredEntry, activation: StoredActivation): Entry {
  const made = pickKeys(entry, ENTRY_KEYS[activation.type])
  return (entry.recorded ? asRecorded(made, entry.recorded) : made) as Entry
}

/** The Participant the participants list sends at `nowIso`, with what is derived from their entries up to then. */
export function toParticipant(participant: StoredParticipant, index: StoreIndex, nowIso: string): Participant {
  const firstEnteredAt = index.firstEnteredAt(participant.id)
  if (!firstEnteredAt || firstEnteredAt.iso > nowIso) {
    throw new Error(`Failed to serialize participant ${participant.id}: they have no entry by ${nowIso}`)
  }
  const made = {
    id: participant.id,
    email: participant.email,
    firstName: participant.firstName,
    lastName: participant.lastName,
    extras: participantExtrasAt(participant, nowIso),
    activationsEntered: index.activationsEntered(participant.id, nowIso),
    firstEnteredAt,
  }
  return (participant.recorded ? asRecorded(made, participant.recorded) : made) as Participant
}
