import { toActivation, toEntry, toParticipant } from '../src/serialize.js'
import type { StoreIndex } from '../src/store/indexes.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../src/store/records.js'

// Response bodies are put together from each record's JSON. A record's JSON is kept until the record
// is replaced: @msw/data's update makes a new record object, so an updated record is serialized anew.
// (A record changed in place is not seen: change records through the collections.)
const cache = new WeakMap<object, string>()

/** The JSON of an activation as the API sends it. */
export function activationJson(activation: StoredActivation): string {
  let json = cache.get(activation)
  if (json === undefined) cache.set(activation, (json = JSON.stringify(toActivation(activation))))
  return json
}

/** The JSON of an entry of an activation as the API sends it. */
export function entryJson(entry: StoredEntry, activation: StoredActivation): string {
  let json = cache.get(entry)
  if (json === undefined) cache.set(entry, (json = JSON.stringify(toEntry(entry, activation))))
  return json
}

/** The JSON of a participant. Not kept: what they entered changes with every entry they add. */
export function participantJson(participant: StoredParticipant, index: StoreIndex): string {
  return JSON.stringify(toParticipant(participant, index))
}

/** The `next` member's JSON. */
export function nextJson(next: string | null): string {
  return next === null ? 'null' : JSON.stringify(next)
}
