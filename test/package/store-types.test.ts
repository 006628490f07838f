import { describe, expect, expectTypeOf, it } from 'vitest'
import { createEmulator, type Emulator, type Sandbox, type Store } from '../../src/index.js'
import { NOW } from '../support/worlds.js'

// `db` is true of every kind of emulator: its type names what it can do, and nothing it cannot.
// The @ts-expect-error lines fail the typecheck (npm test's first step) if a property they deny appears.
function typesOnly(emulator: Emulator, sandbox: Sandbox): void {
  // @ts-expect-error a sandbox's store has no collections
  void sandbox.db.activations
  // @ts-expect-error a sandbox's store cannot build the world whole
  void sandbox.db.materialize
  // @ts-expect-error building every entry is a method that says so, never a getter
  void emulator.db.entries
  // @ts-expect-error nor every participant
  void emulator.db.participants
  // @ts-expect-error the store's writer is the emulator's own
  void emulator.db.create
  // @ts-expect-error the world as loaded is the store's own
  void sandbox.db.loaded
}

describe('Emulator.db', () => {
  it('is a Store in every kind of emulator, with collections only where they can be read', () => {
    expectTypeOf<Sandbox['db']>().toEqualTypeOf<Store>()
    expectTypeOf<Emulator['db']>().toExtend<Store>()
    expectTypeOf<Emulator['db']['materialize']>().toBeFunction()
    expectTypeOf<Emulator['db']['materialized']>().toEqualTypeOf<boolean>()
    expectTypeOf(typesOnly).toBeFunction()
  })

  it('holds at run time what its type says: an emulator’s collections, a sandbox’s none', async () => {
    const emulator = await createEmulator({ scenario: 'empty', now: NOW })
    const sandbox = await emulator.sandbox()
    try {
      expect(typeof emulator.db.materialize).toBe('function')
      expect(emulator.db.activations.count()).toBe(emulator.db.index.activations.size)
      expect('entries' in emulator.db || 'participants' in emulator.db).toBe(false)
      expect(emulator.db.materialized).toBe(false)
      expect(emulator.db.materialize().entries.count()).toBe(0)
      expect(emulator.db.materialized).toBe(true)
      for (const name of ['activations', 'materialize', 'materialized']) expect(name in sandbox.db).toBe(false)
      expect(sandbox.db.index.activations.size).toBe(emulator.db.index.activations.size)
      expect(sandbox.db.changes.size).toBe(0)
    } finally {
      await emulator.close()
    }
  })
})
