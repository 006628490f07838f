// Changes a test might make to an emulator's world through the collections, in a mix of kinds that
// cycles: an entry's email, an activation's title, a new entry (a copy of one with a new id), a
// deleted entry, a participant's first name, and `addEntries` on a running activation. The same
// count on the same world makes the same changes.
import { stateOf } from '../src/contract.js'
import type { StoredEntry } from '../src/contract/stored-records.js'
import type { Emulator } from '../src/index.js'

/** Makes `count` changes through `emulator.db`'s collections (and `addEntries`); returns what each was. */
export async function changeWorld(emulator: Emulator, count: number, tag = 'Changed'): Promise<string[]> {
  const { db } = emulator
  const now = emulator.clock.now()
  const account = emulator.accounts[0]!.name
  const activations = db.index.activationsOf(account).filter((a) => db.index.entryListsOf(a.id).all.length > 2)
  const running = db.index.activationsOf(account).find((a) => stateOf(a, now) === 'running')
  const participants = db.index.participantsOf(account)
  const made: string[] = []
  for (let i = 0; i < count; i++) {
    const activation = activations[i % activations.length]!
    const entries = db.index.entryListsOf(activation.id).all
    const entry = entries[(i * 7) % entries.length] as StoredEntry
    switch (i % 6) {
      case 0:
        await db.materialize().entries.update((q) => q.where({ id: entry.id }), {
          data: (e) => void (e.email = `${tag.toLowerCase()}.${i}@example.com`),
        })
        made.push(`entry ${entry.id} email`)
        break
      case 1:
        await db.activations.update((q) => q.where({ id: activation.id }), {
          data: (a) => void (a.title = `${tag} ${i}`),
        })
        made.push(`activation ${activation.id} title`)
        break
      case 2:
        await db.materialize().entries.create({ ...entry, id: `${tag}${i}` })
        made.push(`entry ${tag}${i} created`)
        break
      case 3:
        db.materialize().entries.delete((q) => q.where({ id: entry.id }))
        made.push(`entry ${entry.id} deleted`)
        break
      case 4: {
        const participant = participants[(i * 13) % participants.length]!
        await db.materialize().participants.update((q) => q.where({ id: participant.id }), {
          data: (p) => void (p.firstName = `${tag}${i}`),
        })
        made.push(`participant ${participant.id} firstName`)
        break
      }
      case 5:
        if (running) {
          const added = await emulator.addEntries(running.id, 1)
          made.push(`entries ${added.entries.join(', ')} added`)
        }
        break
    }
  }
  return made
}
