import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { listBody, MadeBodies } from '../handlers/json.js'

// listBody gives a body made a moment ago again when its pieces are the same arrays. Each call is
// checked against the body written out plainly from the pieces' text, over sequences of calls that
// repeat pieces, swap one for an equal copy or for another, and run past the slots kept.

const utf8 = new TextEncoder()
const text = new TextDecoder()

/** The body as the API writes it, from the text of each piece. */
function plainBody(head: string | Uint8Array[], items: Uint8Array[], next: string | null): string {
  const headText = typeof head === 'string' ? head : head.map((piece) => text.decode(piece)).join('')
  return `{${headText}[${items.map((item) => text.decode(item)).join(',')}],"next":${JSON.stringify(next)}}`
}

describe('listBody', () => {
  // A pool of pieces: distinct arrays, some with the same bytes as another.
  const pool = ['{"id":"a"}', '{"id":"b"}', '{"id":"c"}', '{"id":"a"}', '{"id":"dd"}', '{}'].map((json) =>
    utf8.encode(json),
  )
  const heads = ['"activations":', '"participants":']
  const pieceHeads = [[utf8.encode('"activation":'), pool[0]!, utf8.encode(',"entries":')]]

  it('answers every call with the body its pieces make, however pieces repeat, change or are evicted', () => {
    const call = fc.record({
      head: fc.oneof(fc.constantFrom(...heads), fc.constantFrom(...pieceHeads)),
      items: fc.array(fc.nat(pool.length - 1), { maxLength: 5 }),
      next: fc.constantFrom(null, 'a', 'b'),
    })
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 60 }), (calls) => {
        const made = new MadeBodies()
        for (const { head, items, next } of calls) {
          const pieces = items.map((i) => pool[i]!)
          expect(text.decode(listBody(made, head, pieces, next))).toBe(plainBody(head, pieces, next))
        }
      }),
      { numRuns: 500 },
    )
  })

  it('gives the same body again for the same pieces, and a new one when one piece is a new array', () => {
    const items = [pool[0]!, pool[1]!]
    const made = new MadeBodies()
    const first = listBody(made, '"activations":', items, 'b')
    expect(listBody(made, '"activations":', [...items], 'b')).toBe(first)
    const replaced = listBody(made, '"activations":', [pool[0]!, utf8.encode('{"id":"B"}')], 'b')
    expect(replaced).not.toBe(first)
    expect(text.decode(replaced)).toBe('{"activations":[{"id":"a"},{"id":"B"}],"next":"b"}')
    expect(text.decode(listBody(made, '"activations":', items, null))).toBe(
      '{"activations":[{"id":"a"},{"id":"b"}],"next":null}',
    )
  })

  it('keeps the bodies of each emulator apart: one made by another gives no body again', () => {
    const items = [pool[0]!, pool[1]!]
    const mine = new MadeBodies()
    const theirs = new MadeBodies()
    const first = listBody(mine, '"activations":', items, 'b')
    expect(listBody(theirs, '"activations":', items, 'b')).not.toBe(first)
    expect(listBody(mine, '"activations":', items, 'b')).toBe(first)
  })
})
