import type { Emulator } from '../../src/emulator/emulator-type.js'
import type { Store, WritableStore } from '../../src/store/store.js'

/**
 * The store behind an emulator's or a sandbox's `db`, with the writes the emulator makes through it:
 * for the tests of what reads it whole (a dump) or writes as the live world does.
 */
export function storeOf(emulator: Emulator<Store>): WritableStore {
  return emulator.db as WritableStore
}
