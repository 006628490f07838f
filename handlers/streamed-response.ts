// A long body, made a piece at a time as its reader asks for it: a dump of any size is never one
// string in memory, and never holds the event loop for more than one turn (TURN_MS) at a time.
import { nextTurn, TURN_MS } from '../src/time/turns.js'

/** The most text one piece gathers before it is sent, even when its turn has time left: a piece is a few chunks of the source. */
const PIECE_CHARS = 256 << 10
/**
 * The bytes a stream keeps made ahead of its reader: past them it makes nothing more until the reader
 * takes some, so a reader that stops costs this much (and its socket's buffers), not the whole body.
 */
const QUEUED_BYTES = 1 << 20

const utf8 = new TextEncoder()

/**
 * A response whose body is made as it is read, from text in pieces (a generator that yields as it
 * goes). A server sends it as it comes, with backpressure, and never reads it whole (see
 * src/node/server/streamed-answer.ts); in-process, fetch reads it as any stream.
 * @example return new StreamedResponse(control.dump(), { status: 200, headers: { 'content-type': 'application/json' } })
 */
export class StreamedResponse extends Response {
  /** Resolves once the body has been made whole (its last piece queued for its reader), cancelled (its reader went away) or has failed. */
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
 * every other request is answered between turns. At most QUEUED_BYTES wait for a slow reader.
 * `end` is called when the last piece has been queued, the reader cancelled, or the pieces failed.
 */
function textInTurns(pieces: Iterator<string>, end: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await nextTurn()
        const until = performance.now() + TURN_MS
        let text = ''
        try {
          for (;;) {
            const next = pieces.next()
            if (next.done) {
              if (text) controller.enqueue(utf8.encode(text))
              end()
              return controller.close()
            }
            text += next.value
            if (text.length >= PIECE_CHARS || performance.now() >= until) break
          }
        } catch (error) {
          end()
          throw error
        }
        controller.enqueue(utf8.encode(text))
      },
      cancel() {
        end()
        pieces.return?.()
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: QUEUED_BYTES }),
  )
}
