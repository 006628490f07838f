import type { EndpointName, RequestRecord } from '../../handlers/context.js'
import { ANSWERED_BODIES, ANSWERED_BODY_BYTES, AnsweredBodies, type AnsweredBody } from './answered-bodies.js'
import { BodyHashes } from './body-hash.js'

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
  /**
   * A 200's body as answered, hashed (16 hex digits: see body-hash.ts), kept after the body itself is
   * dropped: a replay compares its answer with it. Absent for an answer without a body kept (an error, a HEAD).
   */
  bodyHash?: string
} & RequestRecord

/**
 * The most bytes the journal's entries may take (as `bytesOf` estimates them), whatever `journalSize`:
 * room for 10,000 ordinary requests (under 1 KB each) several times over, and for about 1,400 of the
 * longest an entry keeps (about 24 KB: see handlers/journal-kept.ts).
 */
const JOURNAL_MAX_BYTES = 32 << 20

/**
 * A sandbox's journal's most bytes: a sandbox serves one test, whose requests are hundreds, and up to
 * `maxSandboxes` (1,000) are open at once, so their journals together stay within a gigabyte.
 */
export const SANDBOX_JOURNAL_MAX_BYTES = 1 << 20

/** What an entry costs besides its text: the object, its fields, `at` and a short path (about 450 bytes). */
const ENTRY_BYTES = 512
/** What an answer's headers cost, when it sent the rate limit's (four short names and values, and their object). */
const HEADERS_BYTES = 256
/** What each query parameter costs besides its characters (a property and its array), and each value (a slot and a string's header). */
const PARAMETER_BYTES = 64
const VALUE_BYTES = 32

/** An entry's heap, estimated from its text (2 bytes a character: a string may be two-byte). */
function bytesOf(entry: RequestRecord): number {
  let bytes = ENTRY_BYTES + 2 * (entry.path.length + (entry.key?.length ?? 0) + (entry.error?.length ?? 0))
  // The rate limit's headers, when sent: three or four short values.
  if (entry.headers !== undefined) bytes += HEADERS_BYTES
  const query = entry.query
  for (const name in query) {
    const values = query[name]!
    bytes += PARAMETER_BYTES + 2 * name.length + VALUE_BYTES * values.length
    for (let i = 0; i < values.length; i++) bytes += 2 * values[i]!.length
  }
  return bytes
}

/**
 * The last `size` API requests, oldest first, within `maxBytes` (the oldest dropped first): a long
 * run, or a client that sends long URLs, does not grow it without end. Beside them, the bodies of the
 * last answers within their own bytes (`bodies`), read by `seq` (`body(seq)`), never in an entry.
 * @example const journal = new Journal(10_000); journal.add({...}); journal.entries()
 */
export class Journal {
  readonly #size: number
  readonly #maxBytes: number
  /** The entries kept from `#head` on, and each one's bytes; those before it are dropped (undefined). */
  #entries: Array<JournalEntry | undefined> = []
  #bytesOf: number[] = []
  #head = 0
  #bytes = 0
  #seq = 0
  /** The `seq` of the last request before the latest clear (0: never cleared). */
  #clearedAfter = 0
  readonly #listeners = new Set<(entry: JournalEntry | null) => void>()
  /** What each follower does when the journal ends (its sandbox ended). */
  readonly #enders = new Set<() => void>()
  readonly #bodies: AnsweredBodies
  readonly #hashes = new BodyHashes()

  constructor(
    size: number,
    maxBytes = JOURNAL_MAX_BYTES,
    bodies = new AnsweredBodies(ANSWERED_BODIES, ANSWERED_BODY_BYTES),
  ) {
    this.#size = size
    this.#maxBytes = maxBytes
    this.#bodies = bodies
  }

  /** The `seq` of the last request recorded (0: none yet): how many this emulator has answered. */
  get lastSeq(): number {
    return this.#seq
  }

  /** The `seq` of the oldest request kept (`lastSeq + 1` when none is): those kept are numbered from it to `lastSeq`. */
  get oldestSeq(): number {
    return this.#seq - (this.#entries.length - this.#head) + 1
  }

  /** The request numbered `seq`, while the journal keeps it. */
  get(seq: number): JournalEntry | undefined {
    const at = this.#head + seq - this.oldestSeq
    return at >= this.#head ? this.#entries[at] : undefined
  }

  /** The bytes the entries kept take, as estimated (at most `maxBytes`, past one entry). */
  get bytes(): number {
    return this.#bytes
  }

  /**
   * Records a request (its `seq` is given here), dropping the oldest while the journal is past its size
   * or bytes; `body`: the bytes it was answered, kept as they are (not copied) among the last bodies.
   */
  add(entry: Omit<JournalEntry, 'seq'>, body?: Uint8Array): JournalEntry {
    const recorded: JournalEntry = { seq: 0, ...entry }
    this.take(recorded, body)
    return recorded
  }

  /**
   * Records a request as `add` does, taking `recorded` itself as the journal's entry, not a copy: its
   * `seq` is set here (an entry made with `seq` first, as `add` makes its copy, shows it first). For
   * the handlers' own records, which nothing else holds or changes once recorded.
   */
  take(recorded: JournalEntry, body?: Uint8Array): void {
    recorded.seq = ++this.#seq
    if (body !== undefined) {
      recorded.bodyHash = this.#hashes.of(body)
      this.#bodies.keep(recorded.seq, body)
    }
    const bytes = bytesOf(recorded)
    this.#entries.push(recorded)
    this.#bytesOf.push(bytes)
    this.#bytes += bytes
    // The newest is kept even alone past maxBytes: an entry's text is bounded (see handlers/journal-kept.ts).
    while (
      this.#entries.length - this.#head > 1 &&
      (this.#entries.length - this.#head > this.#size || this.#bytes > this.#maxBytes)
    ) {
      this.#bytes -= this.#bytesOf[this.#head]!
      this.#entries[this.#head++] = undefined
    }
    // The dropped slots are let go in batches, so that a full journal does not shift its arrays on every request.
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head)
      this.#bytesOf = this.#bytesOf.slice(this.#head)
      this.#head = 0
    }
    for (const listener of this.#listeners) listener(recorded)
  }

  /** The recorded requests, oldest first (at most `size`). */
  entries(): JournalEntry[] {
    return this.#entries.slice(this.#head) as JournalEntry[]
  }

  /**
   * The body answered to request `seq`, as it was sent, while it is among the last bodies kept; else
   * why not (see AnsweredBody). Asked of a request the journal keeps (`get(seq)`) that was answered a body.
   */
  body(seq: number): AnsweredBody {
    return this.#bodies.get(seq)
  }

  /** Forgets every request; the next one's `seq` follows the last one's all the same. */
  clear(): void {
    this.#bodies.clear()
    this.#entries = []
    this.#bytesOf = []
    this.#head = 0
    this.#bytes = 0
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
