/**
 * Every count a scenario gives has bounds, and a scenario past one is refused with the field and the
 * bound named, before anything is planned: exactly the bound is accepted, one past it is refused.
 */
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../src/index.js'
import { ID_LIMITS } from '../src/world/ids.js'
import { parseScenario, WORLD_LIMITS, type ScenarioInput } from '../src/world/scenario.js'
import { NOW_ISO } from './support/api.js'

type Group = NonNullable<ScenarioInput['accounts'][number]['activations']>[number]

const scenarioOf = (groups: Group[], people = 1000): ScenarioInput => ({
  name: 'bounds',
  description: 'A scenario at its bounds',
  seed: 7,
  accounts: [{ name: 'a', apiKeys: ['k'], people, activations: groups }],
})

/** `total` activations over groups of at most the room a group has. */
function activations(total: number): Group[] {
  const groups: Group[] = []
  for (let left = total, g = 0; left > 0; g++) {
    const count = Math.min(left, ID_LIMITS.activationsPerGroup)
    groups.push({ key: `g${g}`, type: 'form', state: 'ended', count })
    left -= count
  }
  return groups
}

/** The problems `parseScenario` names, or none. */
function problems(input: ScenarioInput): string {
  try {
    parseScenario(input)
    return ''
  } catch (error) {
    return (error as Error).message
  }
}

describe('the bounds of a scenario', () => {
  it(`accepts ${WORLD_LIMITS.activations} activations in a world, and refuses one more naming count and the bound`, () => {
    expect(problems(scenarioOf(activations(WORLD_LIMITS.activations - 1)))).toBe('')
    expect(problems(scenarioOf(activations(WORLD_LIMITS.activations)))).toBe('')
    expect(problems(scenarioOf(activations(WORLD_LIMITS.activations + 1)))).toBe(
      'Invalid scenario:\n  accounts.0.activations.0.count: a world holds at most 10,000 activations; with this group it would hold 10,001',
    )
  })

  it('counts activations over every account', () => {
    const input = scenarioOf(activations(WORLD_LIMITS.activations))
    input.accounts.push({ name: 'b', apiKeys: ['k2'], activations: [{ type: 'form', state: 'ended' }] })
    expect(problems(input)).toContain(
      'accounts.1.activations.0.count: a world holds at most 10,000 activations; with this group it would hold 10,001',
    )
  })

  it(`accepts ${WORLD_LIMITS.entries} generated entries in a world, and refuses one more naming entries and the bound`, () => {
    const people = WORLD_LIMITS.entries
    const entries = (n: number): Group[] => [
      { type: 'form', state: 'ended', count: 2, entries: WORLD_LIMITS.entries / 4 },
      { type: 'sweepstakes', state: 'ended', entries: n - WORLD_LIMITS.entries / 2 },
    ]
    expect(problems(scenarioOf(entries(WORLD_LIMITS.entries - 1), people))).toBe('')
    expect(problems(scenarioOf(entries(WORLD_LIMITS.entries), people))).toBe('')
    expect(problems(scenarioOf(entries(WORLD_LIMITS.entries + 1), people))).toBe(
      'Invalid scenario:\n  accounts.0.activations.1.entries: a world holds at most 20,000,000 generated entries (count times entries, over every group); with this group it would hold 20,000,001',
    )
  })

  it('refuses entries of 1e12 at once, naming the field, instead of planning them', async () => {
    const input = scenarioOf([{ type: 'giveaway', state: 'ended', entries: 1e12 }], ID_LIMITS.people)
    await expect(createEmulator({ scenario: input, now: NOW_ISO })).rejects.toThrow(
      'accounts.0.activations.0.entries: a world holds at most 20,000,000 generated entries',
    )
  })

  it.each([
    ['a negative', -1, 'Too small: expected number to be >=0'],
    ['a fractional', 1.5, 'expected int'],
    ['a NaN', Number.NaN, 'received NaN'],
    ['an infinite', Number.POSITIVE_INFINITY, 'accounts.0.activations.0.entries'],
  ])('refuses %s count of entries naming the field', (_, entries, message) => {
    const found = problems(scenarioOf([{ type: 'form', state: 'ended', entries }]))
    expect(found).toContain('accounts.0.activations.0.entries')
    expect(found).toContain(message)
  })
})
