/**
 * parseJsonInTurns: the value JSON.parse gives, for any JSON, however it is cut into pieces; invalid
 * JSON rejected with a SyntaxError; and the event loop gets its turns while a large text is parsed.
 */
import { describe, expect, it } from 'vitest'
import { MAX_JSON_DEPTH } from '../../handlers/json-depth.js'
import { JsonTooDeepError, parseJsonInTurns } from '../../src/node/json-in-turns.js'

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
        const parsed = await parseJsonInTurns(Buffer.from(text), { pieceBytes: piece })
        const expected = JSON.parse(text.replace(/^\ufeff/, ''))
        expect(parsed, text.slice(0, 60)).toEqual(expected)
        expect(JSON.stringify(parsed)).toBe(JSON.stringify(expected))
      }
    })
  }

  it('keeps __proto__ an own property, as JSON.parse does, never the prototype', async () => {
    const parsed = (await parseJsonInTurns(Buffer.from('{"__proto__":{"polluted":true},"a":{"__proto__":[]}}'), {
      pieceBytes: 1,
    })) as any
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
        await expect(
          parseJsonInTurns(Buffer.from(text), { pieceBytes: piece }),
          `${text} in pieces of ${piece}`,
        ).rejects.toThrow(SyntaxError)
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

  /** `levels` arrays and objects, each inside the one before, with a number at the bottom. */
  const nested = (levels: number) => {
    const open = Array.from({ length: levels }, (_, i) => (i % 2 ? '{"k":' : '['))
    return `${open.join('')}1${open
      .reverse()
      .map((o) => (o === '[' ? ']' : '}'))
      .join('')}`
  }

  it(`takes ${MAX_JSON_DEPTH} levels of arrays and objects; ${MAX_JSON_DEPTH + 1}, and 100,000, reject with a JsonTooDeepError naming the bound, however cut`, async () => {
    expect(MAX_JSON_DEPTH).toBe(64)
    for (const piece of [1, 16, 64 << 10]) {
      const deepest = nested(MAX_JSON_DEPTH)
      expect(await parseJsonInTurns(Buffer.from(deepest), { pieceBytes: piece })).toEqual(JSON.parse(deepest))
      // Inside a member of a large array too: the depth counts from the top.
      const inArray = `[0,${nested(MAX_JSON_DEPTH - 1)}]`
      expect(await parseJsonInTurns(Buffer.from(inArray), { pieceBytes: piece })).toEqual(JSON.parse(inArray))
      for (const text of [nested(MAX_JSON_DEPTH + 1), `[0,${nested(MAX_JSON_DEPTH)}]`, nested(100_000)]) {
        const parse = parseJsonInTurns(Buffer.from(text), { pieceBytes: piece })
        await expect(parse, `${text.length} bytes in pieces of ${piece}`).rejects.toThrow(JsonTooDeepError)
        await expect(parse).rejects.toThrow(
          'Malformed body: its JSON nests arrays and objects more than 64 levels deep (at most 64)',
        )
      }
    }
  })

  it('calls its check every 256 KB of text parsed, and stops with what the check throws', async () => {
    const text = JSON.stringify(Array.from({ length: 300_000 }, () => ({})))
    let checks = 0
    expect(await parseJsonInTurns(Buffer.from(text), { check: () => void checks++ })).toHaveLength(300_000)
    // 600,000 bytes of members (the commas between them are not counted): two checks.
    expect(checks).toBe(Math.floor((300_000 * 2) / (256 << 10)))
    const stop = new Error('over budget')
    await expect(
      parseJsonInTurns(Buffer.from(text), {
        check: () => {
          throw stop
        },
      }),
    ).rejects.toBe(stop)
  })
})
