// A long body, made a piece at a time as its reader asks for it: a dump of any size is never one
// string in memory, and never holds the event loop for more than one turn (TURN_MS) at a time.
import { nextTurn, TURN_MS } from '../src/time/turns.js'

/** The most text one piece gathers before it is sent, even when its turn has time left: a piece is a few chunks of the source. */
const PIECE_CHARS = 256 << 10
/**
 * The pieces a stream keeps made ahead of its reader, about 1 MB of text: past them it makes nothing
 * more until the reader takes one, so a reader that stops costs this much (and its socket's buffers),
 * not the whole body. Counted in pieces, not bytes: each read then leaves room for one more, and the
 * stream is asked for it at once, which is how it knows its reader is there (a byte bound passed by a
 * large piece would let a small one be read unseen).
 */
const QUEUED_PIECES = 4
/**
 * How long a stream waits for its reader to take something: past it, the reader is taken to have gone
 * (a response never read, or dropped unread and collected) and the stream ends, freeing what it holds
 * (a dump's place among MAX_DUMPS). A reader takes each piece within milliseconds; 30 s is far past a
 * loaded machine's pauses, and four forgotten dumps keep the next one waiting no longer than that.
 */
const READER_IDLE_MS = 30_000

const utf8 = new TextEncoder()

/**
 * A response whose body is made as it is read, from text in pieces (a generator that yields as it
 * goes). A server sends it as it comes, with backpressure, and never reads it whole (see
 * src/node/server/streamed-answer.ts); in-process, fetch reads it as any stream.
 * @example return new StreamedResponse(control.dump(), { status: 200, headers: { 'content-type': 'application/json' } })
 */
export class StreamedResponse extends Response {
  /**
   * Resolves once the body has been made whole (its last piece queued for its reader), cancelled (its
   * reader went away), left unread for READER_IDLE_MS (the stream then errors) or has failed.
   */
  readonly ended: Promise<void>

  constructor(pieces: Iterable<string>, init: ResponseInit) {
    let end!: () => void
    const ended = new Promise<void>((resolve) => (end = resolve))
    super(textInTurns(pieces[Symbol.iterator](), end), init)
    this.ended = ended
  }
}

/**
 * The bytes of `pieces`, made in turns: each read waits for the event loop's next turn, then takes
 * pieces for at most TURN_MS (or PIECE_CHARS), so that a fast reader gets the body at full speed and
 * every other request is answered between turns. At most QUEUED_PIECES wait for a slow reader; a reader
 * that takes nothing for READER_IDLE_MS is gone, and the stream errors. `end` is called once: when the
 * last piece has been queued, the reader cancelled or went idle, or the pieces failed.
 */
function textInTurns(pieces: Iterator<string>, end: () => void): ReadableStream<Uint8Array> {
  let ended = false
  /** When the reader last asked for more (a pull), by Date.now: a timer's clock. */
  let asked = Date.now()
  let idle: ReturnType<typeof setTimeout> | undefined
  const finish = () => {
    if (ended) return
    ended = true
    clearTimeout(idle)
    end()
  }
  const watch = (controller: ReadableStreamDefaultController<Uint8Array>, ms: number) => {
    idle = setTimeout(() => {
      const waited = Date.now() - asked
      if (ended) return
      if (waited <= READER_IDLE_MS) return watch(controller, READER_IDLE_MS - waited + 1)
      finish()
      pieces.return?.()
      controller.error(new Error(`Failed to send the body: its reader took nothing for ${READER_IDLE_MS / 1000} s`))
    }, ms)
    // A stream's watch must not keep a process alive (a browser's timer is a number, without unref).
    ;(idle as { unref?: () => void }).unref?.()
  }
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        watch(controller, READER_IDLE_MS)
      },
      async pull(controller) {
        asked = Date.now()
        await nextTurn()
        if (ended) return
        const until = performance.now() + TURN_MS
        let text = ''
        try {
          for (;;) {
            const next = pieces.next()
            if (next.done) {
              if (text) controller.enqueue(utf8.encode(text))
              finish()
              return controller.close()
            }
            text += next.value
            if (text.length >= PIECE_CHARS || performance.now() >= until) break
          }
        } catch (error) {
          finish()
          throw error
        }
        controller.enqueue(utf8.encode(text))
      },
      cancel() {
        finish()
        pieces.return?.()
      },
    },
    new CountQueuingStrategy({ highWaterMark: QUEUED_PIECES }),
  )
}
