import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { MAX_JSON_DEPTH, nestsTooDeep } from '../../handlers/json-depth.js'

// The depth rule of admin bodies and sandbox data, on the function itself: each expectation is
// worked out from the text by hand or by a plain recursive count, never by the scanner under test.

const nested = (levels: number, open = '[', close = ']') => open.repeat(levels) + close.repeat(levels)

/** The deepest nesting of a parsed value, counted by recursion (arrays and objects are one level each). */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf))
  if (value !== null && typeof value === 'object') return 1 + Math.max(0, ...Object.values(value).map(depthOf))
  return 0
}

describe('nestsTooDeep', () => {
  it('allows exactly MAX_JSON_DEPTH levels and refuses one more, for arrays, objects and both', () => {
    expect(nestsTooDeep(nested(MAX_JSON_DEPTH))).toBe(false)
    expect(nestsTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true)
    const objects = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1)
    expect(nestsTooDeep(objects(MAX_JSON_DEPTH))).toBe(false)
    expect(nestsTooDeep(objects(MAX_JSON_DEPTH + 1))).toBe(true)
    const mixed = (levels: number) => '[{"a":'.repeat(levels / 2) + 'null' + '}]'.repeat(levels / 2)
    expect(nestsTooDeep(mixed(MAX_JSON_DEPTH))).toBe(false)
    expect(nestsTooDeep(mixed(MAX_JSON_DEPTH + 2))).toBe(true)
  })

  it('counts depth, not brackets: closed levels are given back', () => {
    const siblings = Array.from({ length: 10 }, () => nested(MAX_JSON_DEPTH - 1)).join(',')
    expect(nestsTooDeep(`[${siblings}]`)).toBe(false)
    expect(nestsTooDeep(`[${siblings},${nested(MAX_JSON_DEPTH)}]`)).toBe(true)
  })

  it('does not count brackets inside strings, escaped quotes included', () => {
    const deepText = JSON.stringify('['.repeat(MAX_JSON_DEPTH * 2))
    expect(nestsTooDeep(`{"a":${deepText}}`)).toBe(false)
    // An escaped quote does not end the string: the brackets after it are still text.
    expect(nestsTooDeep(`["\\"${'['.repeat(MAX_JSON_DEPTH + 1)}"]`)).toBe(false)
    // An escaped backslash does end before the quote: the brackets after the string count.
    expect(nestsTooDeep(`["\\\\",${nested(MAX_JSON_DEPTH)}]`)).toBe(true)
    // Quotes in a key too.
    expect(nestsTooDeep(`{"${']'.repeat(MAX_JSON_DEPTH)}":${nested(MAX_JSON_DEPTH)}}`)).toBe(true)
  })

  it('reads the whole text: a deep value at its very end is found', () => {
    expect(nestsTooDeep(`${' '.repeat(1000)}${nested(MAX_JSON_DEPTH + 1)}`)).toBe(true)
    expect(nestsTooDeep('')).toBe(false)
  })

  it('agrees with a recursive count over any JSON value', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'large', withCrossShrink: true },
        fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean()),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.string(), tie('node'), { maxKeys: 3 }),
      ),
    })).node
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: MAX_JSON_DEPTH + 2 }), (inner, wrap) => {
        const text = '['.repeat(wrap) + JSON.stringify(inner) + ']'.repeat(wrap)
        expect(nestsTooDeep(text)).toBe(depthOf(JSON.parse(text)) > MAX_JSON_DEPTH)
      }),
      { numRuns: 300 },
    )
  })
})
