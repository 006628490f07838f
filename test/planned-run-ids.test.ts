// A page of a planned activation finds each entry's id once: building the entry with the id in hand,
// through the list's item maker (no Proxy), computes no id again, and gives the entry the list gives.
import { describe, expect, it } from 'vitest'
import { createActivation } from '../factories/activation.js'
import { entrySkeleton } from '../factories/entry-skeleton.js'
import { createPerson } from '../factories/person.js'
import type { StoredEntry } from '../src/contract/stored-records.js'
import { idsOf, itemsOf, lazySubList } from '../src/store/lazy-list.js'
import { RecentCache } from '../src/store/recent-cache.js'
import { createDraws, WorldFakers } from '../src/time/random.js'
import { plannedRun } from '../src/world/planned-run.js'

const NOW = Date.parse('2026-06-01T12:00:00.000Z')
const COUNT = 300

function run(ids: { made: number }, kept = 0) {
  const fakers = new WorldFakers(NOW)
  const faker = fakers.records
  faker.seed(7)
  const activation = createActivation(faker, { account: 'acme', now: NOW, type: 'giveaway', state: 'ended', id: 'act-1', slugSuffix: 'a1' })
  const skeleton = entrySkeleton(createDraws(11), activation, 500, { entries: COUNT, now: NOW })
  const made = new RecentCache<StoredEntry>(kept)
  return plannedRun({
    activation,
    count: skeleton.length,
    now: NOW,
    skeleton: () => skeleton,
    skeletonSteps: () => undefined,
    entriesSeed: 13,
    entryId: (n) => (ids.made++, `entry-${String(n).padStart(6, '0')}`),
    entryNumber: (id) => (id.startsWith('entry-') ? Number(id.slice(6)) : undefined),
    person: (index) => (fakers.people.seed(index), createPerson(fakers.people, index, `person-${index}`)),
    faker: () => fakers.records,
    made: kept > 0 ? { get: (n) => made.get(n), set: (n, e) => made.set(n, e) } : { get: () => undefined, set: (_, e) => e },
  })
}

describe('a planned activation read by id and position', () => {
  it('builds an entry given its id without computing the id again, equal to the one the list gives', () => {
    const ids = { made: 0 }
    const all = run(ids).lists().all
    const idAt = idsOf(all)!
    const itemAt = itemsOf(all)!
    const expected = all.slice(100, 200)
    ids.made = 0
    const page = Array.from({ length: 100 }, (_, i) => itemAt(100 + i, idAt(100 + i)))
    expect(ids.made).toBe(100)
    expect(page).toEqual(expected)
  })

  it('gives a sub-list its items by id the same way', () => {
    const ids = { made: 0 }
    const all = run(ids).lists().all
    const sub = lazySubList(all, Uint32Array.of(3, 50, 299))
    const [idAt, itemAt] = [idsOf(sub)!, itemsOf(sub)!]
    ids.made = 0
    const items = [0, 1, 2].map((i) => itemAt(i, idAt(i)))
    expect(ids.made).toBe(3)
    expect(items).toEqual([all[3], all[50], all[299]])
    expect(items.map((e) => e.id)).toEqual(['entry-000003', 'entry-000050', 'entry-000299'])
  })
})
