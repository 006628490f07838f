import type { SeededFaker } from '../src/time/random.js'
import type { StoredActivation, StoredEntry } from '../src/contract/stored-records.js'
import { createEntry } from './entry-fields.js'
import {
  entrySkeleton,
  outcomeAt,
  type EntriesRequest as SkeletonRequest,
  type EntrySkeleton,
} from './entry-skeleton.js'
import type { Person } from './person.js'

/** How many entries an activation gets, how many win, complete, replay or are voided, and their ids. */
export type EntriesRequest = SkeletonRequest & {
  /** The id of the activation's `n`th entry, given by the world (unique by construction). */
  entryId: (n: number) => string
}

/**
 * The entries of an activation, in serving order (by `enteredAt`; a replay after what it repeats), each
 * by a person drawn from the account's pool: its skeleton first, then each entry's fields, from the same
 * Faker, one entry at a time (the caller may give the event loop its turn between them, using `faker`
 * for nothing else meanwhile). Entries lie between the start and the earlier of the end and `now`.
 * @example [...createEntries(faker, activation, (i) => people[i], people.length, { entries: 300, now, entryId })]
 */
export function* createEntries(
  faker: SeededFaker,
  activation: StoredActivation,
  personAt: (index: number) => Person,
  poolSize: number,
  req: EntriesRequest,
): Generator<StoredEntry, void> {
  const skeleton = entrySkeleton(faker, activation, poolSize, req)
  for (let n = 0; n < skeleton.length; n++) {
    yield createEntry(faker, activation, personAt(skeleton.people[n]!), outcomeAt(skeleton, n, req.entryId(n)))
  }
}

/**
 * The `n`th entry of a skeleton, its fields drawn from `faker` reseeded with `seed`: a pure function
 * of the seed and the entry's place, so that an entry is built when it is read, in any order.
 * @example entryAt(faker, activation, skeleton, 17, deriveSeed(entriesSeed, 17), id, person)
 */
export function entryAt(
  faker: SeededFaker,
  activation: StoredActivation,
  skeleton: EntrySkeleton,
  n: number,
  seed: number,
  id: string,
  person: Person,
): StoredEntry {
  faker.seed(seed)
  return createEntry(faker, activation, person, outcomeAt(skeleton, n, id))
}
