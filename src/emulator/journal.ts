import type { EndpointName, RequestRecord } from '../../handlers/context.js'

/** Which API operation a request reached. */
export type JournalEndpoint = EndpointName

/** One API request as the emulator answered it, with its place in the journal. Admin requests are never journaled. */
export type JournalEntry = {
  /**
   * Its place in the journal: 1 for the emulator's first request, then 2... A clear or a reset forgets
   * the requests but not the count, so a number is never given twice: a client of the live stream that
   * reconnects with the `Last-Event-ID` it saw before a reset is sent the requests made since.
   */
  seq: number
} & RequestRecord

/**
 * The last `size` API requests, oldest first: a long run does not grow without end.
 * @example const journal = new Journal(10_000); journal.add({...}); journal.entries()
 */
export class Journal {
  readonly #size: number
  #entries: JournalEntry[] = []
  #seq = 0
  /** The `seq` of the last request before the latest clear (0: never cleared). */
  #clearedAfter = 0
  readonly #listeners = new Set<(entry: JournalEntry | null) => void>()
  /** What each follower does when the journal ends (its sandbox ended). */
  readonly #enders = new Set<() => void>()

  constructor(size: number) {
    this.#size = size
  }

  /** The `seq` of the last request recorded (0: none yet): how many this emulator has answered. */
  get lastSeq(): number {
    return this.#seq
  }

  /** Records a request (its `seq` is given here). */
  add(entry: Omit<JournalEntry, 'seq'>): JournalEntry {
    const recorded = { seq: ++this.#seq, ...entry }
    this.#entries.push(recorded)
    // Trimmed in batches, so that a full journal does not shift its whole array on every request.
    if (this.#entries.length > this.#size + Math.max(64, this.#size >> 4)) {
      this.#entries = this.#entries.slice(-this.#size)
    }
    for (const listener of this.#listeners) listener(recorded)
    return recorded
  }

  /** The recorded requests, oldest first (at most `size`). */
  entries(): JournalEntry[] {
    return this.#entries.length > this.#size ? this.#entries.slice(-this.#size) : this.#entries.slice()
  }

  /** Forgets every request; the next one's `seq` follows the last one's all the same. */
  clear(): void {
    this.#entries = []
    this.#clearedAfter = this.#seq
    for (const listener of this.#listeners) listener(null)
  }

  /**
   * The `seq` of the last request before the latest clear or reset (0 when there was none): a client
   * that last saw a request at or before it missed that clear.
   */
  get clearedAfter(): number {
    return this.#clearedAfter
  }

  /**
   * Hears each request as it is recorded, and `null` when the journal is cleared, and calls `onEnd`
   * when the journal ends (a sandbox's, when the sandbox ends); returns the call that stops it (the
   * admin API's live stream, `GET /__emulator/requests/stream`).
   * @example const stop = journal.subscribe((entry) => console.log(entry?.status ?? 'cleared'))
   */
  subscribe(listener: (entry: JournalEntry | null) => void, onEnd?: () => void): () => void {
    this.#listeners.add(listener)
    if (onEnd) this.#enders.add(onEnd)
    return () => {
      this.#listeners.delete(listener)
      if (onEnd) this.#enders.delete(onEnd)
    }
  }

  /** Ends the journal (its sandbox ended): each follower hears it and is let go, so that it holds the sandbox no longer. */
  end(): void {
    const enders = [...this.#enders]
    this.#listeners.clear()
    this.#enders.clear()
    for (const onEnd of enders) onEnd()
  }
}
