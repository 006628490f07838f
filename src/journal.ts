/** Which API operation a request reached; null for a path that is none of them. */
export type JournalEndpoint = 'list' | 'activation' | 'latest' | 'participants'

/** One API request as the emulator answered it. Admin requests are never journaled. */
export type JournalEntry = {
  /** Its place in the journal: 1 for the first request since the start (or the last clear), then 2... */
  seq: number
  /** When it arrived, on the emulator's clock (ISO). */
  at: string
  /** When it arrived, in real time (milliseconds since the epoch): rate-limit windows also close in real time. */
  realAt: number
  method: string
  /** The path as sent, under the base URL (e.g. `/activations/list`). */
  path: string
  /** The query string's parameters, each with every value it was given, in order. */
  query: Record<string, string[]>
  endpoint: JournalEndpoint | null
  /** The API key it carried (null without a readable `Authorization: Api-Key` header). */
  key: string | null
  /** The account of that key, or null when the key is unknown. */
  account: string | null
  status: number
  /** Milliseconds from arrival to the answer, including any delay. */
  durationMs: number
  /** The `next` value a 200 list page answered (null on the last page); undefined for other answers. */
  next?: string | null
  /** For a 429: the seconds its message told the client to wait. */
  retryInSeconds?: number
  /** The id of the fault rule that changed the answer, if one did. */
  fault?: string
}

/**
 * The last `size` API requests, oldest first: a long run does not grow without end.
 * @example const journal = new Journal(10_000); journal.add({...}); journal.entries()
 */
export class Journal {
  readonly #size: number
  #entries: JournalEntry[] = []
  #seq = 0

  constructor(size: number) {
    this.#size = size
  }

  /** Records a request (its `seq` is given here). */
  add(entry: Omit<JournalEntry, 'seq'>): JournalEntry {
    const recorded = { seq: ++this.#seq, ...entry }
    this.#entries.push(recorded)
    // Trimmed in batches, so that a full journal does not shift its whole array on every request.
    if (this.#entries.length > this.#size + Math.max(64, this.#size >> 4)) {
      this.#entries = this.#entries.slice(-this.#size)
    }
    return recorded
  }

  /** The recorded requests, oldest first (at most `size`). */
  entries(): JournalEntry[] {
    return this.#entries.length > this.#size ? this.#entries.slice(-this.#size) : this.#entries.slice()
  }

  /** Forgets every request; the next one is `seq` 1 again. */
  clear(): void {
    this.#entries = []
    this.#seq = 0
  }
}
