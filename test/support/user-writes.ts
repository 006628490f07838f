import type { StoredEntry } from '../../src/contract/stored-records.js'
import type { Emulator, Store } from '../../src/index.js'
import type { CollectionStore } from '../../src/store/store.js'

/** The writes a user makes through an emulator's `db` collections (a sandbox's store has none). */
export const WRITES = [
  'retitle activation',
  'delete activation',
  'create entry',
  'change entry',
  'move entry',
  'delete entry',
  'rename participant',
  'delete participant',
  'create participant',
] as const

/** A store's activations, in the index's order: a sandbox's store has no collections. */
export const activationsOf = (target: Emulator<Store>) => [...target.db.index.activations.values()]

/** The `n`th of a list, counted round. */
export const pick = <T>(list: readonly T[], n: number): T | undefined => list[n % Math.max(1, list.length)]

/** What a step on one record of a target's store does; nothing when it holds no such record. */
export async function write(
  target: Emulator<Store>,
  step: { what: (typeof WRITES)[number]; which: number; k: number },
  n: number,
): Promise<string> {
  // A sandbox's store has no collections (its type says so): nothing to write through.
  if (!('materialize' in target.db)) return 'no collections'
  const db = target.db as CollectionStore
  const activation = pick(activationsOf(target), step.which)
  if (!activation) return 'no activation'
  const id = activation.id
  const entry = pick(db.index.entryListsOf(id).all, step.k)
  const person = pick(db.index.participantsOf(activation.account), step.k)
  const at = (ms: number) => ({ iso: new Date(ms).toISOString(), ts: Math.floor(ms / 1000) })
  switch (step.what) {
    case 'retitle activation':
      return JSON.stringify(
        await db.activations.update((q) => q.where({ id }), { data: (a) => void (a.title = `Retitled ${n}`) }),
      )
    case 'delete activation':
      return JSON.stringify(db.activations.delete((q) => q.where({ id })))
    case 'create entry':
      if (!entry || !person) return 'no entry to copy'
      return JSON.stringify(
        await db.materialize().entries.create({
          ...structuredClone(entry),
          id: `WrittenEntry${n}`,
          participantId: person.id,
          enteredAt: at(target.clock.now() - (step.k % 10_000) * 60_000),
        } as StoredEntry),
      )
    case 'create participant':
      if (!person) return 'no person to copy'
      return JSON.stringify(
        await db.materialize().participants.create({
          ...structuredClone(person),
          id: `WrittenPerson${n}`,
          email: `written${n}@example.com`,
        }),
      )
    case 'rename participant':
      if (!person) return 'no person'
      return JSON.stringify(
        await db.materialize().participants.update((q) => q.where({ id: person.id }), {
          data: (p) => void (p.firstName = `Renamed${n}`),
        }),
      )
    case 'delete participant':
      if (!person) return 'no person'
      return JSON.stringify(db.materialize().participants.delete((q) => q.where({ id: person.id })))
  }
  if (!entry) return 'no entry'
  const where = (q: { where(x: { id: string }): never }) => q.where({ id: entry.id })
  switch (step.what) {
    case 'change entry':
      return JSON.stringify(
        await db
          .materialize()
          .entries.update(where as never, { data: (e) => void (e.email = `changed${n}@example.com`) }),
      )
    case 'move entry':
      return JSON.stringify(
        await db.materialize().entries.update(where as never, {
          data: (e) => void (e.enteredAt = at(Date.parse(e.enteredAt.iso) - (step.k % 500) * 3_600_000)),
        }),
      )
    case 'delete entry':
      return JSON.stringify(db.materialize().entries.delete(where as never))
  }
}
