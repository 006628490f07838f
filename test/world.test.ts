import { describe, expect, it } from 'vitest'
import { FILTER_TYPES, RESPONSE_TYPES, SUBTYPES } from '../src/contract/enums.js'
import { stateOf } from '../src/contract/state.js'
import { everyTypeScenario } from '../scenarios/every-type.js'
import { undocumentedTypesScenario } from '../scenarios/undocumented-types.js'
import { rule, WORLD_RULES, type WorldAt } from './support/world-rules.js'
import { NOW, SEEDS, worldOf } from './support/worlds.js'

describe.each(SEEDS)('the world of seed %i', (seed) => {
  const world = (): WorldAt => ({ ...worldOf(seed), now: NOW })
  for (const { name, check } of WORLD_RULES) it(name, () => check(world()))

  it('puts each activation in the state its group asked for, derived from its times and the clock alone', () => {
    const asked = undocumentedTypesScenario.accounts[0].activations.map((g) => g.state)
    rule((must) =>
      worldOf(seed).activations.forEach((a, i) =>
        must(stateOf(a, NOW) === asked[i], () => `${a.id}: ${stateOf(a, NOW)} not ${asked[i]}`),
      ),
    )
  })
})

describe('the world as a whole', () => {
  it('is byte-identical for the same seed and clock, and differs for another seed', () => {
    const a = JSON.stringify(worldOf(1, { ...everyTypeScenario }))
    const b = JSON.stringify(worldOf(1, { ...everyTypeScenario }))
    const c = JSON.stringify(worldOf(2, { ...everyTypeScenario }))
    expect(a).toBe(b)
    expect(c).not.toBe(a)
  })

  it('keeps every other activation and its entries byte-identical when one group grows', () => {
    const base = { ...everyTypeScenario }
    const account = base.accounts[0]
    const grown = {
      ...base,
      accounts: [
        {
          ...account,
          activations: account.activations.map((g, i) =>
            i === 1 ? { ...g, count: 3 } : i === 2 ? { ...g, entries: ('entries' in g ? g.entries : 0) + 25 } : g,
          ),
        },
      ],
    }
    const before = worldOf(5, base)
    const after = worldOf(5, grown)
    const grownIds = new Set(
      after.activations.filter((a) => !before.activations.some((b) => b.id === a.id)).map((a) => a.id),
    )
    expect(grownIds.size).toBe(2)
    const changed = before.activations[2]!.id
    for (const a of before.activations) {
      expect(JSON.stringify(after.activations.find((x) => x.id === a.id))).toBe(JSON.stringify(a))
      if (a.id === changed) continue
      const of = (w: typeof before) => JSON.stringify(w.entries.filter((e) => e.activationId === a.id))
      expect(of(after)).toBe(of(before))
    }
  })

  it('generates every one of the 10 response types, the 14 filter types and the 11 subtypes', () => {
    const world = worldOf(SEEDS[0]!)
    const types = new Set(world.activations.map((a) => a.type))
    for (const t of [...RESPONSE_TYPES, ...FILTER_TYPES]) expect(types).toContain(t)
    const subtypes = new Set(world.activations.map((a) => a.subtype))
    for (const s of SUBTYPES) expect(subtypes).toContain(s)
  })
})
