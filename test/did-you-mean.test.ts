import { describe, expect, it } from 'vitest'
import { closestName } from '../src/contract/did-you-mean.js'

const SCENARIOS = ['default', 'empty', 'every-type', 'busy', 'edge-cases']

describe('closestName', () => {
  it.each([
    ['defualt', 'default'],
    ['BUSY', 'busy'],
    ['emty', 'empty'],
    ['every_type', 'every-type'],
    ['edge-case', 'edge-cases'],
  ])('takes %s for %s', (typed, meant) => {
    expect(closestName(typed, SCENARIOS)).toBe(meant)
  })

  it('allows one edit per three characters: two in default (7), not three', () => {
    expect(closestName('dfeualt', SCENARIOS)).toBe('default')
    expect(closestName('dfeualtt', SCENARIOS)).toBeUndefined()
  })

  it('allows one edit in a short name, not two', () => {
    expect(closestName('nowe', ['now'])).toBe('now')
    expect(closestName('nw', ['now'])).toBe('now')
    expect(closestName('n', ['now'])).toBeUndefined()
  })

  it('suggests nothing for a name near none, however long', () => {
    expect(closestName('xyz', SCENARIOS)).toBeUndefined()
    expect(closestName('default'.repeat(100_000), SCENARIOS)).toBeUndefined()
    expect(closestName('', SCENARIOS)).toBeUndefined()
  })
})
