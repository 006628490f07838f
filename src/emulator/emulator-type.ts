import type { HttpHandler } from 'msw'
import type { AccountSettings, EndpointOptions } from '../../handlers/index.js'
import type { Added, NewActivation } from '../world/add-data.js'
import type { Clock } from '../time/clock.js'
import type { EmulatorSettings } from './emulator-options.js'
import type { FaultRule, FaultRuleInput } from './fault-rules.js'
import type { Journal } from './journal.js'
import type { ReportCard, ReportOptions } from './report-card.js'
import type { ReportFormat } from './report-formats.js'
import type { Bundle, BundleOptions } from './bundle.js'
import type { Scenario } from '../world/scenario.js'
import type { CollectionStore, Store } from '../store/store.js'
import type { SandboxOptions } from './sandbox-options.js'
import type { SandboxInfo } from './sandbox-info.js'
import type { EmulatorHandle } from './handle.js'
import type { EmulatorState } from './emulator-state.js'

// The emulator's types, apart from the code that makes one (emulator.ts), so that what only needs the
// type (the handle in every mode) does not import the maker, nor the maker it.

/** An emulator's sandboxes: isolated copies of its world, each an `Emulator` of its own (see `emulator.sandbox()`). */
export type EmulatorSandboxes = {
  /** Every open sandbox, oldest first. */
  list(): SandboxInfo[]
  /** The open sandbox of that id (marked used); an EmulatorError `unknown_sandbox` says whether it ended, expired or never was. */
  get(id: string): Sandbox
  /** What `list()` says of one open sandbox (marked used); `unknown_sandbox` when it is not open. */
  info(id: string): SandboxInfo
  /** Ends a sandbox and frees what it held; `unknown_sandbox` when it is not open. */
  end(id: string): void
  /** The most that may be open at once (`maxSandboxes`). */
  readonly max: number
  /** How many are open. */
  readonly size: number
}

/**
 * A sandbox: an emulator over its host's world as the host was created (never the host's changes),
 * with its own clock, accounts and keys, fault rules, rate-limit counts, added data, live arrivals
 * and journal. Its store keeps only its own changes.
 */
export type Sandbox = Emulator<Store> & {
  readonly id: string
  readonly label: string | null
  /** The API keys minted for it, by account: requests that carry one reach this sandbox at the host's base URL. */
  readonly apiKeys: Readonly<Record<string, string[]>>
  /** Its admin API: `<origin>/__emulator/sandboxes/<id>`, with the host's control endpoints for it alone. */
  readonly adminUrl: string
  /** When it ends unless used before (ISO; null: never). */
  expiresAt(): string | null
}

/** The fault rules of an emulator: checked in the order added, for each API request past the key and rate-limit checks. */
export type EmulatorFaults = {
  /** Adds a rule after the others and returns it with its `id`; a bad rule throws an EmulatorError naming what is wrong. */
  add(rule: FaultRuleInput): FaultRule
  /** Every rule with its counts (`matched`, `fired`, `spent`), in order. */
  list(): FaultRule[]
  /** Removes a rule and returns it; an unknown id throws an EmulatorError (`unknown_fault_rule`). */
  remove(id: string): FaultRule
  /** Removes every rule (the options' `latency` and `errorRate` rules too, until `reset()`). */
  clear(): void
}

/**
 * A running emulator: its handlers, its store, its clock and its settings. An emulator's store
 * (`db`) is a `CollectionStore`; a sandbox's is a `Store`, with no collections of its own.
 */
export type Emulator<Db extends Store = CollectionStore> = {
  /** The request handlers: `setupServer(...emulator.handlers)`. */
  readonly handlers: HttpHandler[]
  /** The admin API under `/__emulator` at the base URL's origin; put them before `handlers`. */
  readonly adminHandlers: HttpHandler[]
  /** The store the handlers serve; `reset()` undoes every write to it since it was created. */
  readonly db: Db
  /** The clock every state, date filter and rate-limit window reads: `set`, `advance` (`"2h"`), `freeze`, `run`. */
  readonly clock: Clock
  /** The fault rules. */
  readonly faults: EmulatorFaults
  /** The last `journalSize` API requests, oldest first (`entries()`, `clear()`). */
  readonly journal: Journal
  /** The scenario, validated, with the options' seed applied. */
  readonly scenario: Scenario
  /** The base URL without a trailing slash. */
  readonly baseUrl: string
  /** Each account's name, keys and current settings. */
  readonly accounts: readonly AccountSettings[]
  /** The endpoints' choices where the spec is silent. */
  readonly options: EndpointOptions
  /** The instant the world was built around (milliseconds). */
  readonly builtAt: number
  /** Whether the admin handlers need `Authorization: Bearer <adminToken>`. */
  readonly adminProtected: boolean
  /** Whether entries arrive in running activations as the clock moves (the `live` option). */
  readonly live: boolean
  /** Changes settings of an account, or the clock. */
  set(settings: EmulatorSettings): void
  /**
   * Restores the scenario's world, settings, clock, rate-limit counts and fault rules, and empties the
   * journal (whose `seq` goes on from the last request's: a number is never given twice).
   */
  reset(): Promise<void>
  /**
   * The scenario, seed, clock, accounts, counts and fault rules, as the admin API answers them. A live
   * world is brought up to the clock first, at once: in-process, the cost of a clock moved far on is
   * paid by the next read (over HTTP, the world catches up in turns before the request is answered).
   */
  state(): EmulatorState
  /**
   * The report card of the client, read from the journal: each rule any client of this API should
   * keep, kept or broken with the requests that show it, and the edge cases the run met. The
   * options bound two rules (`concurrency`, `slowMs`) and pick one key's requests (`key`).
   * @example expectReportPassed(emulator.report())
   */
  report(options?: ReportOptions): ReportCard
  /**
   * The report card as text: `junit` (JUnit XML, for a CI's test report), `markdown` (a CI job's
   * summary) or `json`, as `GET /__emulator/report?format=` answers it.
   * @example writeFileSync('client-report.xml', emulator.reportText('junit'))
   */
  reportText(format: ReportFormat, options?: ReportOptions): string
  /**
   * A reproduction bundle: the world (its scenario, seed and instant), the options that shape answers,
   * the changes since the start or the last reset at their places among the requests, the journal with
   * each answer's status and body hash (and the texts of the last `bodies`), and the state now; API
   * keys named. `activation-emulator replay` stands it up again.
   * @example writeFileSync('bundle.json', JSON.stringify(await emulator.bundle()))
   */
  bundle(options?: BundleOptions): Promise<Bundle>
  /** Adds `count` entries, entered now, to a running activation; the ids made. */
  addEntries(activationId: string, count: number): Promise<Added>
  /** Adds an activation (with `entries` generated entries) around the clock's instant; the ids made. */
  addActivation(activation: NewActivation): Promise<Added>
  /**
   * The world as it stands at the clock's instant, as the JSON text of a dump in pieces (what
   * `activation-emulator dump` writes and `data` serves back).
   */
  dump(): Generator<string>
  /**
   * Opens a sandbox over this emulator's world: isolated, born in milliseconds, costing what it
   * changes. Its base URL is `<base URL>/sandboxes/<id>`, and requests with its keys reach it at this
   * emulator's base URL too, through this emulator's `handlers`.
   * @example
   * const sandbox = await emulator.sandbox({ now: '2026-06-01T12:00:00Z', freeze: true })
   * await fetch(`${emulator.baseUrl}/activations/list`, { headers: { authorization: `Api-Key ${sandbox.apiKeys.default[0]}` } })
   * await sandbox.close()
   */
  sandbox(options?: SandboxOptions): Promise<Sandbox>
  /** The open sandboxes. */
  readonly sandboxes: EmulatorSandboxes
  /** A sandbox: ends it. An emulator: ends its sandboxes. */
  close(): Promise<void>
  /**
   * Its controls in the shape every mode shares (`useEmulator`, `useServer`, `useSandbox`): each async,
   * answering what the admin API answers (`await emulator.handle.clock.advance('2h')` is `{ now, frozen }`).
   */
  readonly handle: EmulatorHandle
}
