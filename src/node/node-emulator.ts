import { createEmulatorWith, type Emulator } from '../emulator/emulator.js'
import type { EmulatorOptions } from '../emulator/emulator-options.js'
import { cachedWorlds } from './world-cache.js'

/**
 * Creates an emulator of the Activation Data API: a world built from a scenario (or, around a fixed
 * instant, read from the cache of worlds built before: the `cache` option), in a store, served by MSW
 * request handlers.
 * @example
 * const emulator = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00.000Z' })
 * const server = setupServer(...emulator.handlers)
 */
export const createEmulator: (options?: EmulatorOptions) => Promise<Emulator> = createEmulatorWith(cachedWorlds)
