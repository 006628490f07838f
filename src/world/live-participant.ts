import { answerProfileQuestion, createParticipant } from '../../factories/participant.js'
import type { Person } from '../../factories/person.js'
import type { StoredEntry, StoredParticipant, World } from '../contract/stored-records.js'
import type { WritableStore } from '../store/store.js'
import { deriveSeed, type SeededFaker } from '../time/random.js'

/**
 * The participant side of a live arrival: a person new to the account (`known` undefined) becomes a
 * participant at the entry's instant; a returning one may answer one more profile question as they
 * enter, replaced in the batch (the records not stored yet), or in the store if stored before;
 * `pending` keeps each person's latest. Each drawn from its own seed.
 * @example arrivedParticipant(store, fakers.people, scenario.seed, { id, person, known, account }, entry, batch, pending)
 */
export function arrivedParticipant(
  db: WritableStore,
  faker: SeededFaker,
  seed: number,
  who: { id: string; person: Person; known: StoredParticipant | undefined; account: string },
  entry: StoredEntry,
  batch: World,
  pending: Map<string, StoredParticipant>,
): void {
  const { id, known } = who
  if (!known) {
    faker.seed(deriveSeed(seed, 'live', 'participant', id))
    const participant = createParticipant(faker, who.person, who.account, [entry.enteredAt])
    batch.participants.push(participant)
    pending.set(id, participant)
    return
  }
  faker.seed(deriveSeed(seed, 'live', 'profile', entry.id))
  const updated = answerProfileQuestion(faker, known, entry.enteredAt)
  if (!updated) return
  const inBatch = batch.participants.indexOf(known)
  if (inBatch >= 0) batch.participants[inBatch] = updated
  else db.replaceParticipant(known, updated)
  pending.set(id, updated)
}
