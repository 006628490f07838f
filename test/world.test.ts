import { describe, expect, it } from 'vitest'
import { activationSchema } from '../src/contract/activation.js'
import { toMillis } from '../src/contract/date-object.js'
import { FILTER_TYPES, hasSubtype, RESPONSE_TYPES, SUBTYPES, SUBTYPES_BY_TYPE } from '../src/contract/enums.js'
import { ENTRY_KEYS, entrySchemas } from '../src/contract/entry.js'
import { toActivation, toEntry, stateOf } from '../src/serialize.js'
import type { StoredActivation, StoredEntry } from '../src/store/records.js'
import { bracketVoteOf, isCompletedEntry, isWinningEntry } from '../src/store/entry-traits.js'
import { slugify } from '../factories/random-helpers.js'
import { everyTypeScenario } from '../scenarios/every-type.js'
import { NOW, SEEDS, worldOf } from './support/worlds.js'

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

function entriesByActivation(entries: StoredEntry[]): Map<string, StoredEntry[]> {
  const map = new Map<string, StoredEntry[]>()
  for (const e of entries) map.set(e.activationId, [...(map.get(e.activationId) ?? []), e])
  return map
}

function allDates(value: unknown, out: Array<{ iso: string; ts: number }> = []) {
  if (Array.isArray(value)) value.forEach((v) => allDates(v, out))
  else if (value && typeof value === 'object') {
    if ('iso' in value && 'ts' in value) out.push(value as { iso: string; ts: number })
    else Object.values(value).forEach((v) => allDates(v, out))
  }
  return out
}

describe.each(SEEDS)('the world of seed %i', (seed) => {
  const world = () => worldOf(seed)
  const activationOf = (entry: StoredEntry) => world().activations.find((a) => a.id === entry.activationId) as StoredActivation

  it('serves activations that match the contract exactly', () => {
    for (const a of world().activations) expect(activationSchema.safeParse(toActivation(a)).error).toBeUndefined()
  })

  it('has a subtype only for giveaway and sweepstakes, always one valid for the type', () => {
    for (const a of world().activations) {
      if (hasSubtype(a.type)) expect(SUBTYPES_BY_TYPE[a.type]).toContain(a.subtype)
      else expect('subtype' in a).toBe(false)
    }
  })

  it('writes every DateObject with a millisecond iso ending in Z and ts its floored seconds', () => {
    const dates = allDates([world().activations, world().entries, world().participants])
    expect(dates.length).toBeGreaterThan(0)
    for (const d of dates) {
      expect(d.iso).toMatch(ISO_MS)
      expect(d.ts).toBe(Math.floor(Date.parse(d.iso) / 1000))
    }
  })

  it('orders createdAt <= updatedAt <= now and createdAt <= startTime < endTime', () => {
    for (const a of world().activations) {
      const [created, updated, start, end] = [a.createdAt, a.updatedAt, a.startTime, a.endTime].map(toMillis) as number[]
      expect(created).toBeLessThanOrEqual(updated!)
      expect(updated).toBeLessThanOrEqual(NOW)
      expect(created).toBeLessThanOrEqual(start!)
      expect(start).toBeLessThan(end!)
    }
  })

  it('derives unique slugs from titles, puts the slug in publicUrl, and gives unique mixed-case ids', () => {
    const activations = world().activations
    expect(new Set(activations.map((a) => a.slug)).size).toBe(activations.length)
    expect(new Set(activations.map((a) => a.id)).size).toBe(activations.length)
    for (const a of activations) {
      expect(a.slug.startsWith(slugify(a.title))).toBe(true)
      expect(a.publicUrl).toContain(a.slug)
      expect(a.id).toMatch(/[A-Z]/)
      expect(a.id).toMatch(/[a-z]/)
    }
    const entryIds = world().entries.map((e) => e.id)
    expect(new Set(entryIds).size).toBe(entryIds.length)
  })

  it('sets sponsorName and sponsorUrl together or neither', () => {
    for (const a of world().activations) expect(a.sponsorName === null).toBe(a.sponsorUrl === null)
  })

  it('puts each activation in the state its group asked for, derived from its times and the clock alone', () => {
    const asked = everyTypeScenario.accounts[0].activations.map((g) => g.state)
    world().activations.forEach((a, i) => expect(stateOf(a, NOW)).toBe(asked[i]))
  })

  it('has entries only for started activations, entered between startTime and the earlier of endTime and now', () => {
    for (const e of world().entries) {
      const a = activationOf(e)
      expect(toMillis(a.startTime)).toBeLessThanOrEqual(NOW)
      expect(toMillis(e.enteredAt)).toBeGreaterThanOrEqual(toMillis(a.startTime))
      expect(toMillis(e.enteredAt)).toBeLessThanOrEqual(Math.min(toMillis(a.endTime), NOW))
    }
  })

  it('gives every entry the common fields plus exactly the fields of its activation type', () => {
    for (const e of world().entries) {
      const a = activationOf(e)
      const served = toEntry(e, a)
      expect(entrySchemas[a.type].safeParse(served).error).toBeUndefined()
      const optional = new Set(['subtype', 'rank', 'voidedAt'])
      expect(ENTRY_KEYS[a.type].filter((k) => !optional.has(k) && !(k in served))).toEqual([])
    }
  })

  it('gives a prize, confirmation and fulfilment only to winners, and voidedAt only to a voided winner who is not fulfilled', () => {
    for (const e of world().entries) {
      const a = activationOf(e)
      if (a.type !== 'giveaway' && a.type !== 'contest') continue
      expect(e['prize'] !== null).toBe(e['isWinner'] === true)
      if (e['isFulfilled']) expect(e['isWinner']).toBe(true)
      if (e['isConfirmed']) expect(e['isWinner']).toBe(true)
      if ('voidedAt' in e) {
        expect(e['isWinner']).toBe(true)
        expect(e['prize']).not.toBeNull()
        expect(e['isFulfilled']).toBe(false)
        expect(toMillis(e['voidedAt'] as never)).toBeGreaterThanOrEqual(toMillis(e.enteredAt))
      }
    }
  })

  it("ranks a contest's entries only once it has ended, winners first", () => {
    for (const [id, entries] of entriesByActivation(world().entries)) {
      const a = world().activations.find((x) => x.id === id)!
      if (a.type !== 'contest') continue
      const ended = stateOf(a, NOW) === 'ended'
      for (const e of entries) {
        expect('rank' in e).toBe(ended)
        if (!ended) expect(e['isWinner']).toBe(false)
      }
      if (ended) {
        expect(entries.map((e) => e['rank']).sort((x, y) => (x as number) - (y as number))).toEqual(entries.map((_, i) => i + 1))
        const winners = entries.filter((e) => e['isWinner'])
        for (const w of winners) expect(w['rank']).toBeLessThanOrEqual(winners.length)
      }
    }
  })

  it("makes trivia and pick'em winners exactly those who answered every question correctly, and completion agree with the question count", () => {
    for (const e of world().entries) {
      const a = activationOf(e)
      const q = a.config.questionCount
      if (a.type === 'trivia' || a.type === 'pickem') {
        expect(e['isWinner']).toBe(e['totalCorrect'] === q)
        expect(e['totalCorrect']).toBeLessThanOrEqual(e.questionsAnswered!)
        expect(isCompletedEntry(e, a)).toBe(e.questionsAnswered === q)
        if (e['isWinner']) expect(isCompletedEntry(e, a)).toBe(true)
      }
      if (a.type === 'scavenger') {
        expect(e['totalCorrect']).toBeLessThanOrEqual(q!)
        expect(isCompletedEntry(e, a)).toBe(e['totalCorrect'] === q)
        if (e['isWinner']) expect(isCompletedEntry(e, a)).toBe(true)
      }
    }
  })

  it('gives sweepstakes choices only for vote_to_win, from its options', () => {
    for (const e of world().entries) {
      const a = activationOf(e)
      if (a.type !== 'sweepstakes') continue
      const choices = e['choices'] as Array<{ id: string }>
      if (a.subtype === 'vote_to_win') {
        expect(choices.length).toBeGreaterThan(0)
        for (const c of choices) expect(a.config.voteChoices.map((v) => v.id)).toContain(c.id)
      } else expect(choices).toEqual([])
    }
  })

  it('names in every bracket vote a round and a seed that exist in that bracket', () => {
    for (const e of world().entries) {
      const a = activationOf(e)
      if (a.type !== 'bracket') continue
      const vote = bracketVoteOf(e)!
      const round = a.config.bracket!.rounds.find((r) => r.round === vote.round)
      expect(round?.seeds).toContain(vote.seed)
    }
  })

  it('marks isReplay exactly on the repeat entries of an entrant in the same giveaway', () => {
    for (const [id, entries] of entriesByActivation(world().entries)) {
      const a = world().activations.find((x) => x.id === id)!
      if (a.type !== 'giveaway') continue
      const seen = new Set<string>()
      for (const e of entries) {
        expect(e['isReplay']).toBe(seen.has(e.participantId))
        seen.add(e.participantId)
      }
    }
  })

  it('gives an address only to giveaway winners of giveaways that collect one', () => {
    for (const e of world().entries) {
      const a = activationOf(e)
      if (a.type === 'giveaway') expect(e['address'] !== null).toBe(e['isWinner'] === true && a.config.collectsAddress)
    }
  })

  it('asks every entry of an activation the same extra questions', () => {
    for (const [id, entries] of entriesByActivation(world().entries)) {
      const a = world().activations.find((x) => x.id === id)!
      for (const e of entries) expect(e.extras.map((x) => x.key)).toEqual(a.config.extraQuestions.map((q) => q.key))
    }
  })

  it('draws entrants from a pool: one person per participant, with the same name and e-mail in every entry', () => {
    const participants = new Map(world().participants.map((p) => [p.id, p]))
    expect(new Set(world().participants.map((p) => p.email)).size).toBe(participants.size)
    const entrants = new Set<string>()
    for (const e of world().entries) {
      const p = participants.get(e.participantId)!
      expect([e.email, e.firstName, e.lastName]).toEqual([p.email, p.firstName, p.lastName])
      entrants.add(p.id)
    }
    expect(entrants.size).toBe(participants.size)
    const multi = [...entriesByActivation(world().entries).values()].length
    expect(multi).toBeGreaterThan(1)
  })

  it("dates each profile answer at one of the participant's entries", () => {
    const times = new Map<string, Set<string>>()
    for (const e of world().entries) times.set(e.participantId, (times.get(e.participantId) ?? new Set()).add(e.enteredAt.iso))
    for (const p of world().participants) for (const x of p.extras) expect(times.get(p.id)).toContain(x.answeredAt.iso)
  })

  it('counts winners and completions that the filters select', () => {
    for (const e of world().entries) {
      const a = activationOf(e)
      if (a.type === 'giveaway' || a.type === 'contest' || a.type === 'scavenger') expect(isWinningEntry(e, a)).toBe(e['isWinner'])
    }
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
            i === 1 ? { ...g, count: 3 } : i === 2 ? { ...g, entries: (g.entries ?? 0) + 25 } : g,
          ),
        },
      ],
    }
    const before = worldOf(5, base)
    const after = worldOf(5, grown)
    const grownIds = new Set(after.activations.filter((a) => !before.activations.some((b) => b.id === a.id)).map((a) => a.id))
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
