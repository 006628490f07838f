import type { AccountSettings } from '../../handlers/context.js'
import type { Scenario } from '../world/scenario.js'
import type { LoggedChange } from './control-log.js'
import type { EmulatorOptions } from './emulator-options.js'
import type { EmulatorState } from './emulator-state.js'
import type { Journal, JournalEntry } from './journal.js'

// A reproduction bundle: one JSON value that stands an emulator where it stood. Its world as its
// scenario, seed and instant (a world served from a dump: its scenario and counts, the records being
// the file's), the options that shape answers, the changes since it started or was last reset each at
// its place among the requests, the journal (each request with its answer's status and the bytes
// answered while the journal keeps them), and the state when it was made. API keys are replaced by
// names (`key:<account>:<n>`, `key:unknown:<n>`), which are keys of the world the bundle stands up.

export const BUNDLE_FORMAT = 'activation-emulator/bundle@1'

/** A request of the journal as the bundle keeps it: its key named, and the body answered while it was kept. */
export type BundledRequest = Omit<JournalEntry, 'key'> & {
  key: string | null
  /** The body answered (a 200's), while the journal kept it: its SHA-256 (hex) and its text. */
  body?: { sha256: string; text: string }
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
    /** A world served from a dump (`data`): the records are the dump's, not the scenario's; how many it held. */
    data?: { activations: number; entries: number; participants: number }
  }
  /** The options that shape the answers, as `createEmulator` takes them. */
  options: Record<string, unknown>
  /** The changes since the start or the last reset, in order; `complete` false when some were dropped. */
  changes: { complete: boolean; list: LoggedChange[] }
  /**
   * The requests since the start or the last reset, oldest first; `complete` false when the journal
   * dropped or cleared some of them (the first one kept is then not the first made).
   */
  journal: { complete: boolean; requests: BundledRequest[] }
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

  /** A value with every `key` and `apiKeys` field named, at any depth (rules, accounts, settings). */
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

/** The SHA-256 of bytes, as lowercase hex (Web Crypto: the same in Node and in a browser). */
async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))
  let hex = ''
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0')
  return hex
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
  data: { activations: number; entries: number; participants: number } | undefined
  changes: readonly LoggedChange[]
  changesComplete: boolean
  journal: Journal
  /** The number of the last request before the start or the last reset. */
  startSeq: number
  state: EmulatorState
}

/**
 * A bundle of the emulator as it stands: see `Bundle`.
 * @example writeFileSync('bundle.json', JSON.stringify(await makeBundle(source)))
 */
export async function makeBundle(source: BundleSource): Promise<Bundle> {
  const names = new KeyNames([...source.scenario.accounts, ...source.accounts])
  const options: Record<string, unknown> = {}
  for (const name of ANSWER_OPTIONS) if (source.options[name] !== undefined) options[name] = source.options[name]
  const { journal } = source
  const requests: BundledRequest[] = []
  for (const entry of journal.entries()) {
    const request: BundledRequest = { ...entry, key: entry.key === null ? null : names.name(entry.key) }
    const body = journal.body(entry.seq)
    if (body.kept) request.body = { sha256: await sha256(body.bytes), text: UTF8.decode(body.bytes) }
    requests.push(request)
  }
  const complete = journal.clearedAfter <= source.startSeq && journal.oldestSeq === source.startSeq + 1
  return {
    format: BUNDLE_FORMAT,
    madeAt: new Date().toISOString(),
    world: {
      builtAt: new Date(source.builtAt).toISOString(),
      scenario: names.named(source.scenario),
      ...(source.data ? { data: source.data } : {}),
    },
    options: names.named(options),
    changes: { complete: source.changesComplete, list: names.named([...source.changes]) },
    journal: { complete, requests },
    state: names.named(source.state),
  }
}
