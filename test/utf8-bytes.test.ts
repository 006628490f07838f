import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeUtf8With, utf8Bytes } from '../handlers/utf8-bytes.js'
import { encodeUtf8InNode } from '../src/node/utf8-in-node.js'

// A record's bytes are what TextEncoder writes for its JSON, for any text: ASCII, accented and other
// non-ASCII letters, emoji (surrogate pairs), a lone surrogate (U+FFFD), and text long enough to pass
// the pool Node's Buffer takes small texts from.

const encoder = new TextEncoder()

const TextEncoders = () => encodeUtf8With((text) => encoder.encode(text))

describe.each([
  ['TextEncoder (a browser)', TextEncoders],
  ["Node's Buffer (the Node entry)", encodeUtf8InNode],
])('utf8Bytes with %s', (_, use) => {
  beforeAll(use)
  afterAll(encodeUtf8InNode)
  it.each([
    ['ascii', '{"id":"a"}'],
    ['non-ASCII', 'Zoë Šimić, 東京'],
    ['an emoji', 'fan 🎉'],
    ['a lone surrogate', 'a\ud800b'],
    ['the empty text', ''],
    ['a long text', 'é'.repeat(10_000)],
  ])('writes what TextEncoder writes for %s', (_, text) => {
    const bytes = utf8Bytes(text)
    expect(bytes).toEqual(encoder.encode(text))
    expect(Object.getPrototypeOf(bytes)).toBe(Uint8Array.prototype)
  })

  it('writes what TextEncoder writes for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 600 }), (text) => {
        expect(utf8Bytes(text)).toEqual(encoder.encode(text))
      }),
      { numRuns: 2000 },
    )
  })

  it('gives arrays that later texts do not write into', () => {
    const first = utf8Bytes('{"id":"first"}')
    for (let i = 0; i < 2000; i++) utf8Bytes(`{"id":"${i}"}`)
    expect(new TextDecoder().decode(first)).toBe('{"id":"first"}')
  })
})

describe("the package's Node entry", () => {
  it("has records' bytes written by Buffer, into its shared pool", async () => {
    TextEncoders()
    // The entry's first import in this file's modules: its side effect sets the encoder.
    await import('../src/index.js')
    const bytes = utf8Bytes('{"id":"a"}')
    expect(bytes.byteLength).toBe(10)
    expect(bytes.buffer.byteLength).toBeGreaterThan(10)
  })
})
