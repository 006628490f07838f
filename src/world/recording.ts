// What `activation-emulator record` read from an upstream API: every page as it was sent. Plain data:
// the walker (src/node/record/) writes it, anonymizeRecording() rewrites it, and worldFromRecording()
// turns it into a world that serves the same pages back.

/** The format marker of a recording. */
export const RECORDING_FORMAT = 'activation-emulator/recording@1'

/** One page as the upstream sent it. `path` is relative to the base URL, with its query: `/activations/list?limit=100`. */
export type RecordedPage = { path: string; status: number; body: unknown }

/** One account (one API key) as recorded. */
export type RecordedAccount = {
  apiKey: string
  /** false when the participants list answered 403. */
  premium: boolean
  /** The `/activations/list` pages in order, unfiltered, at the recording's `limits.activations`. */
  activations: RecordedPage[]
  /** Each activation's `/activations/:id` pages in order, at `limits.entries`. */
  entries: Record<string, RecordedPage[]>
  /** The `/experience/participants` pages in order; none when the account has no premium feature. */
  participants: RecordedPage[]
  /**
   * What the API does not send as fields, read from its filters, per activation: `completed` holds the
   * `is_completed=1` pages (trivia, pick'em, scavenger hunts), `winners` the `is_winner=1` pages (trivia, pick'em).
   */
  completed: Record<string, RecordedPage[]>
  winners: Record<string, RecordedPage[]>
  /**
   * The `/activations/list?state=…` pages of each state, which tell the instant the upstream stood at
   * (no field shows an activation's state). Optional: without them the world is served at the latest
   * recorded instant.
   */
  states?: Partial<Record<'not_started' | 'running' | 'ended', RecordedPage[]>>
}

/** A whole recording: where from, at which limits, when, and each account's pages. */
export type Recording = {
  format: typeof RECORDING_FORMAT
  /** The base URL recorded from. */
  from: string
  /** The `limit` each list was read with. */
  limits: { activations: number; entries: number; participants: number }
  /** Real time at the start and the end of the recording (ISO). */
  startedAt: string
  finishedAt: string
  /** The upstream's `Date` header on its first answer (ISO), if it sent one. */
  serverDate: string | null
  accounts: RecordedAccount[]
}

/**
 * The pages of one activation in a map keyed by activation id (`entries`, `completed`, `winners`): only
 * its own property counts, so that an id named `constructor` or `toString` finds nothing it was not given.
 */
export function pagesFor(
  map: Readonly<Record<string, RecordedPage[]>> | undefined,
  id: string,
): RecordedPage[] | undefined {
  return map !== undefined && Object.hasOwn(map, id) ? map[id] : undefined
}

/**
 * A map keyed by upstream ids, with no prototype: `__proto__` is a key like any other, and no key finds
 * Object.prototype's properties. It turns into the same JSON as a plain object.
 */
export function idMap<T>(pairs: Iterable<readonly [string, T]>): Record<string, T> {
  const map = Object.create(null) as Record<string, T>
  for (const [key, value] of pairs)
    Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true })
  return map
}

/** Every page of an account, in one fixed order: its lists, each state's, each activation's and its filters', its participants. */
export function pagesOf(account: RecordedAccount): RecordedPage[] {
  return [
    ...account.activations,
    ...Object.values(account.states ?? {}).flat(),
    ...Object.values(account.entries).flat(),
    ...Object.values(account.completed).flat(),
    ...Object.values(account.winners).flat(),
    ...account.participants,
  ]
}
