import { steerClock } from '../../handlers/admin/clock.js'
import { filteredJournal } from '../../handlers/admin/journal.js'
import { ApiError } from '../../handlers/errors.js'
import { EmulatorError } from '../contract/emulator-error.js'
import type { WorldDump } from '../world/dump.js'
import type { Store } from '../store/store.js'
import type { Emulator } from './emulator-type.js'
import { asJson, type EmulatorHandle } from './handle.js'

/**
 * An emulator's handle (`emulator.handle`): its own methods behind the shape every mode shares, each
 * async, each answering what the admin API would answer (as JSON), with the admin API's checks. As
 * the admin API does, a read or a move of the clock first waits for the world's catch-up in turns
 * (`catchUp`: a clock moved far, a contest's end), and a move catches up after it too, so that the
 * read after finds it done.
 */
export function inProcessHandle(emulator: Emulator<Store>, catchUp: () => Promise<void> | undefined): EmulatorHandle {
  const clockTo = async (body: Record<string, unknown>) => {
    await catchUp()
    const reading = steerClock(emulator.clock, body)
    await catchUp()
    return reading
  }
  /** `read`'s value once the world is caught up with the clock. */
  const caughtUp = async <T>(read: () => T | Promise<T>): Promise<T> => {
    await catchUp()
    return read()
  }
  return {
    get baseUrl() {
      return emulator.baseUrl
    },
    get apiKey() {
      const key = emulator.accounts[0]?.apiKeys[0]
      if (key === undefined) throw new Error('The first account has no API key')
      return key
    },
    get apiKeys() {
      return Object.fromEntries(emulator.accounts.map((a) => [a.name, [...a.apiKeys]]))
    },
    clock: {
      now: () => clockTo({}),
      advance: (by) => clockTo({ advance: by }),
      set: (instant) => clockTo({ set: instant }),
      freeze: () => clockTo({ freeze: true }),
      run: () => clockTo({ freeze: false }),
    },
    faults: {
      add: async (rule) => asJson(emulator.faults.add(rule)),
      list: async () => asJson(emulator.faults.list()),
      remove: async (id) => asJson(emulator.faults.remove(id)),
      clear: async () => emulator.faults.clear(),
    },
    set: async (settings) => {
      emulator.set(settings)
      const name = settings.account ?? emulator.accounts[0]?.name
      return asJson(emulator.accounts.find((a) => a.name === name)!)
    },
    reset: async () => {
      await emulator.reset()
      return caughtUp(() => asJson(emulator.state()))
    },
    state: () => caughtUp(() => asJson(emulator.state())),
    requests: async (filter = {}) => {
      const params = new URLSearchParams()
      for (const [name, value] of Object.entries(filter)) if (value !== undefined) params.set(name, String(value))
      try {
        return asJson(await filteredJournal(emulator.journal, params))
      } catch (error) {
        // The admin API's 400, as the library says a value given to an operation is wrong.
        if (error instanceof ApiError) throw new EmulatorError('bad_input', error.message)
        throw error
      }
    },
    report: (options) => caughtUp(() => asJson(emulator.report(options))),
    bundle: async (options) => asJson(await emulator.bundle(options)),
    clearRequests: async () => emulator.journal.clear(),
    addEntries: async (activationId, count) => asJson(await emulator.addEntries(activationId, count)),
    addActivation: async (activation) => asJson(await emulator.addActivation(activation)),
    dump: () => caughtUp(() => JSON.parse([...emulator.dump()].join('')) as WorldDump),
  }
}
