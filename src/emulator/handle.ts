import type { AccountSettings, EndpointName } from '../../handlers/index.js'
import type { Added, NewActivation } from '../world/add-data.js'
import type { WorldDump } from '../world/dump.js'
import type { EmulatorState } from './emulator-state.js'
import type { EmulatorSettings } from './emulator-options.js'
import type { FaultRule, FaultRuleInput } from './fault-rules.js'
import type { JournalEntry } from './journal.js'
import type { ReportCard, ReportOptions } from './report-card.js'
import type { Bundle, BundleOptions } from './bundle.js'

/** Where a clock stands: what every clock operation of a handle answers, as `POST /__emulator/clock` does. */
export type ClockReading = { now: string; frozen: boolean }

/** The journal's filters, as `GET /__emulator/requests` takes them; `limit` keeps the last so many that match. */
export type JournalFilter = { endpoint?: EndpointName; key?: string; status?: number; limit?: number }

/**
 * One emulator's controls, the same in every mode: in-process (`useEmulator()`, `emulator.handle`),
 * over HTTP on a running server (`useServer()`, `connect()`) and in a sandbox of one (`useSandbox()`).
 * Every operation is async and answers the same values in every mode, as the admin API answers them
 * (JSON: times as ISO strings), so a test file changes mode by changing the line that makes its handle.
 * A refused operation rejects with an error whose message is the admin API's (in-process an
 * `EmulatorError`; over HTTP an `Error` that also names the request and the status answered).
 * @example
 * const api = useEmulator({ now: '2026-06-01T12:00:00Z' }, { beforeAll, afterEach, afterAll })
 * // or: useServer({ url }, hooks), or useSandbox({ url }, hooks): the rest of the file is the same
 * it('moves time', async () => {
 *   expect(await api.clock.advance('2h')).toEqual({ now: '2026-06-01T14:00:00.000Z', frozen: true })
 * })
 */
export type EmulatorHandle = {
  /** The API's base URL in this mode, without a trailing slash. */
  readonly baseUrl: string
  /** The first account's first API key. */
  readonly apiKey: string
  /** Every API key, by account. */
  readonly apiKeys: Readonly<Record<string, readonly string[]>>
  /** The clock: each call answers where it stands then. */
  readonly clock: {
    now(): Promise<ClockReading>
    /** By milliseconds or a duration such as `"90s"`, `"2h"`, `"1d"` (negative: back). */
    advance(by: string | number): Promise<ClockReading>
    /** To an instant: an ISO time or milliseconds. */
    set(instant: string | number): Promise<ClockReading>
    freeze(): Promise<ClockReading>
    run(): Promise<ClockReading>
  }
  /** The fault rules, checked in the order added. */
  readonly faults: {
    /** Adds a rule after the others; answers it with its `id` and counts. */
    add(rule: FaultRuleInput): Promise<FaultRule>
    list(): Promise<FaultRule[]>
    /** Removes a rule; answers it. */
    remove(id: string): Promise<FaultRule>
    clear(): Promise<void>
  }
  /** Changes an account's settings (the first account's unless `account` names another); answers the account. */
  set(settings: Omit<EmulatorSettings, 'now'>): Promise<AccountSettings>
  /** Puts the world, accounts, clock, rules and journal back as they started; answers the state. */
  reset(): Promise<EmulatorState>
  state(): Promise<EmulatorState>
  /** The journal of API requests, oldest first, filtered; the entries are the same in every mode. */
  requests(filter?: JournalFilter): Promise<JournalEntry[]>
  /** The report card of the client, read from the journal, as `GET /__emulator/report` answers it. */
  report(options?: ReportOptions): Promise<ReportCard>
  /** A reproduction bundle, as `GET /__emulator/bundle` answers it. */
  bundle(options?: BundleOptions): Promise<Bundle>
  /** Empties the journal (its `seq` goes on). */
  clearRequests(): Promise<void>
  /** Adds `count` entries, entered now, to a running activation; answers the ids made. */
  addEntries(activationId: string, count: number): Promise<Added>
  /** Adds an activation (with `entries` generated entries) around the clock's instant; answers the ids made. */
  addActivation(activation: NewActivation): Promise<Added>
  /** The world at the clock's instant, as `GET /__emulator/dump` answers it. */
  dump(): Promise<WorldDump>
}

/** A value as it would arrive as JSON: what the HTTP modes answer, so that in-process answers the very same. */
export function asJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T)
}
