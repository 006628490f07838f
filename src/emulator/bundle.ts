import type { AccountSettings } from '../../handlers/context.js'
import type { Scenario } from '../world/scenario.js'
import type { LoggedChange } from './control-log.js'
import type { EmulatorOptions } from './emulator-options.js'
import type { EmulatorState } from './emulator-state.js'
import type { Journal } from './journal.js'
import { ANSWERED_BODIES } from './answered-bodies.js'
import { EmulatorError } from '../contract/emulator-error.js'
import { journalRows, type BundleJournal } from './bundle-journal.js'

// A reproduction bundle: one JSON value that stands an emulator where it stood. Its world as its
// scenario, seed and instant (a world served from a dump: its scenario and counts, the records being
// the file's), the options that shape answers, the changes since it started or was last reset each at
// its place among the requests, the journal (each request with its answer's status and the bytes
// answered while the journal keeps them), and the state when it was made. API keys are replaced by
// names (`key:<account>:<n>`, `key:unknown:<n>`), which are keys of the world the bundle stands up.

export const BUNDLE_FORMAT = 'activation-emulator/bundle@1'

/** The most bodies a bundle keeps as text: every body the journal keeps (see answered-bodies.ts). */
const MOST_BODIES = ANSWERED_BODIES

/** What `bundle()` takes. */
export type BundleOptions = {
  /**
   * How many of the last bodies answered to keep as text, for a replay's diff of the first answer
   * that differs (0 to 500, while the journal keeps them; default 0: every answer is compared by its
   * hash, and a differing body is shown as replayed).
   */
  bodies?: number
}

/** The options checked: an EmulatorError naming what is wrong. */
export function bundleBodies(options: BundleOptions = {}): number {
  const { bodies = 0, ...rest } = options
  const unknown = Object.keys(rest)
  if (unknown.length)
    throw new EmulatorError('bad_option', `Unknown bundle option ${JSON.stringify(unknown[0])}: it takes bodies`)
  if (!Number.isInteger(bodies) || bodies < 0 || bodies > MOST_BODIES) {
    throw new EmulatorError(
      'bad_option',
      `bodies must be a whole number from 0 to ${MOST_BODIES}, got ${JSON.stringify(bodies)}`,
    )
  }
  return bodies
}

export type Bundle = {
  format: typeof BUNDLE_FORMAT
  /** When it was made, in real time. */
  madeAt: string
  world: {
    /** The instant the world was built around. */
    builtAt: string
    /** The scenario, its seed and the options' settings applied, its API keys named. */
    scenario: unknown
    /**
     * A world served from a dump (`data`): the records are the dump's, not the scenario's; how many it
     * held, and the SHA-256 of the file it was read from when the emulator was told it (`dataSha256`).
     */
    data?: { activations: number; entries: number; participants: number; sha256?: string }
  }
  /** The options that shape the answers, as `createEmulator` takes them. */
  options: Record<string, unknown>
  /** The changes since the start or the last reset, in order; `complete` false when some were dropped. */
  changes: { complete: boolean; list: LoggedChange[] }
  /**
   * The requests since the start or the last reset, oldest first, as rows (read them with
   * `requestsOf`); `complete` false when the journal dropped or cleared some of them (the first one
   * kept is then not the first made).
   */
  journal: BundleJournal
  /** Where the emulator stood when the bundle was made, its keys named. */
  state: EmulatorState
}

/** The options that change what is answered, and nothing of the process (callbacks, caches, tokens, data). */
const ANSWER_OPTIONS = [
  'baseUrl',
  'clock',
  'clockSpeed',
  'live',
  'journalSize',
  'rateLimitHeaders',
  'defaultLimits',
  'unsupportedFilter',
  'order',
  'latency',
  'errorRate',
] as const

/** Names for API keys: each account's keys by their place, any other key by when it was first seen. */
class KeyNames {
  readonly #names = new Map<string, string>()
  #unknown = 0

  constructor(accounts: ReadonlyArray<{ name: string; apiKeys: readonly string[] }>) {
    for (const account of accounts) {
      account.apiKeys.forEach((key, i) => this.#names.set(key, `key:${account.name}:${i + 1}`))
    }
  }

  name(key: string): string {
    let name = this.#names.get(key)
    if (name === undefined) this.#names.set(key, (name = `key:unknown:${++this.#unknown}`))
    return name
  }

  /**
   * A value with every `key` and `apiKeys` field named, at any depth (rules, accounts, settings): for
   * values where every `key` is an API key (not a scenario, whose activations have keys of their own).
   */
  named<T>(value: T): T {
    return JSON.parse(JSON.stringify(value), (field, v: unknown) =>
      field === 'key' && typeof v === 'string'
        ? this.name(v)
        : field === 'apiKeys' && Array.isArray(v)
          ? v.map((k) => (typeof k === 'string' ? this.name(k) : k))
          : v,
    ) as T
  }
}

const UTF8 = new TextDecoder()

/** What a bundle is made of: the emulator's pieces, read when it is made. */
type BundleSource = {
  options: EmulatorOptions
  scenario: Scenario
  builtAt: number
  /** The accounts as the world started them (their keys, the ones requests were named by). */
  accounts: readonly AccountSettings[]
  /** Counts of the records of a world served from a dump; undefined for a generated world. */
  data: { activations: number; entries: number; participants: number; sha256?: string } | undefined
  changes: readonly LoggedChange[]
  changesComplete: boolean
  journal: Journal
  /** The number of the last request before the start or the last reset. */
  startSeq: number
  state: EmulatorState
  /** How many of the last answers' bodies to keep as text, while the journal keeps them (for a replay's diff). */
  bodies: number
}

/**
 * A bundle of the emulator as it stands: see `Bundle`.
 * @example writeFileSync('bundle.json', JSON.stringify(makeBundle(source)))
 */
export function makeBundle(source: BundleSource): Bundle {
  const names = new KeyNames([...source.scenario.accounts, ...source.accounts])
  const options: Record<string, unknown> = {}
  for (const name of ANSWER_OPTIONS) if (source.options[name] !== undefined) options[name] = source.options[name]
  const { journal } = source
  const entries = journal.entries()
  const bodies: Record<string, string> = {}
  for (let i = entries.length - 1, wanted = source.bodies; i >= 0 && wanted > 0; i--) {
    const body = journal.body(entries[i]!.seq)
    if (!body.kept) continue
    bodies[entries[i]!.seq] = UTF8.decode(body.bytes)
    wanted--
  }
  const complete = journal.clearedAfter <= source.startSeq && journal.oldestSeq === source.startSeq + 1
  const builtAt = new Date(source.builtAt).toISOString()
  return {
    format: BUNDLE_FORMAT,
    madeAt: new Date().toISOString(),
    world: {
      builtAt,
      // Only its accounts' keys: an activation's `key` in a scenario is no API key, and seeds its records.
      scenario: {
        ...source.scenario,
        accounts: source.scenario.accounts.map((account) => ({
          ...account,
          apiKeys: account.apiKeys.map((key) => names.name(key)),
        })),
      },
      ...(source.data ? { data: source.data } : {}),
    },
    options: names.named(options),
    changes: { complete: source.changesComplete, list: names.named([...source.changes]) },
    journal: journalRows(entries, (key) => names.name(key), builtAt, complete, bodies),
    state: names.named(source.state),
  }
}
