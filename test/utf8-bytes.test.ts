import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { utf8Bytes } from '../handlers/utf8-bytes.js'

// A record's bytes are what TextEncoder writes for its JSON, for any text: ASCII, accented and other
// non-ASCII letters, emoji (surrogate pairs), a lone surrogate (U+FFFD), and text long enough to pass
// the pool Node's Buffer takes small texts from.

const encoder = new TextEncoder()

describe('utf8Bytes', () => {
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
