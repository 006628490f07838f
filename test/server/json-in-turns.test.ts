/**
 * parseJsonInTurns: the value JSON.parse gives, for any JSON, however it is cut into pieces; invalid
 * JSON rejected with a SyntaxError; and the event loop gets its turns while a large text is parsed.
 */
import { describe, expect, it } from 'vitest'
import { parseJsonInTurns } from '../../src/node/json-in-turns.js'

const texts = [
  '{}',
  '[]',
  ' \n{ "a" : [ 1 , 2.5e3 , -0 , true , false , null , "x" ] , "b" : { } , "c" : [ ] }\n',
  '"a string with \\"quotes\\", \\\\ backslashes \\\\\\" and } ] { [ brackets"',
  '{"nested":{"deeper":[[[{"k":"v"}]],{"e":"\\u00e9\\ud83d\\ude00"}]},"unicode":"éà😀","esc":"\\n\\t\\/"}',
  '{"__proto__":{"polluted":true},"constructor":1,"toString":"x","hasOwnProperty":[]}',
  '{"dup":1,"dup":2}',
  '12345',
  'true',
  '\ufeff{"bom":1}',
  JSON.stringify({
    activations: Array.from({ length: 300 }, (_, i) => ({ id: `a${i}`, n: i, s: '"}]'.repeat(i % 7) })),
  }),
]

describe('parseJsonInTurns', () => {
  for (const piece of [1, 16, 64 << 10]) {
    it(`gives what JSON.parse gives, in pieces of at most ${piece} bytes`, async () => {
      for (const text of texts) {
        const parsed = await parseJsonInTurns(Buffer.from(text), piece)
        const expected = JSON.parse(text.replace(/^\ufeff/, ''))
        expect(parsed, text.slice(0, 60)).toEqual(expected)
        expect(JSON.stringify(parsed)).toBe(JSON.stringify(expected))
      }
    })
  }

  it('keeps __proto__ an own property, as JSON.parse does, never the prototype', async () => {
    const parsed = (await parseJsonInTurns(
      Buffer.from('{"__proto__":{"polluted":true},"a":{"__proto__":[]}}'),
      1,
    )) as any
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype)
    expect(Object.keys(parsed)).toEqual(['__proto__', 'a'])
    expect(parsed.polluted).toBeUndefined()
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toEqual({ polluted: true })
    expect(({} as any).polluted).toBeUndefined()
  })

  it('rejects invalid JSON with a SyntaxError, however it is cut', async () => {
    for (const text of [
      '',
      '{',
      '[1,2',
      '{"a":1,}',
      '[1 2]',
      '{"a" 1}',
      '{"a":1}x',
      '{a:1}',
      '"open',
      '[1,]',
      'nul',
      '{"a":[1,{"b":}]}',
    ]) {
      for (const piece of [1, 4, 64 << 10]) {
        await expect(parseJsonInTurns(Buffer.from(text), piece), `${text} in pieces of ${piece}`).rejects.toThrow(
          SyntaxError,
        )
      }
    }
  })

  it('lets the event loop take its turns while it parses a large text', async () => {
    const text = JSON.stringify({
      entries: Array.from({ length: 200_000 }, (_, i) => ({ id: `e${i}`, value: 'x'.repeat(40), i })),
    })
    const order: string[] = []
    let turns = 0
    const tick = () => {
      turns++
      if (order.length === 0) setImmediate(tick)
    }
    setImmediate(tick)
    const parsed = parseJsonInTurns(Buffer.from(text)).then((value) => order.push('parsed') && value)
    expect(((await parsed) as { entries: unknown[] }).entries).toHaveLength(200_000)
    // The loop went round during the parse, not only once it was over.
    expect(turns).toBeGreaterThan(1)
  })
})
