/**
 * What a record shows at the clock's instant (src/contract/at-instant.ts, state.ts), on the functions
 * themselves: each rule at the instant itself, a millisecond before it and a millisecond after. An
 * activation ending exactly at `now` has ended; an entry entered, a voiding or an answer made exactly at
 * `now` has happened.
 */
import { describe, expect, it } from 'vitest'
import {
  activationAt,
  activationChangesAfter,
  activationExistsAt,
  changesAfterOf,
  entryAt,
  entryChangesAfter,
  entryExistsAt,
  participantChangesAfter,
  participantExtrasAt,
  resultsOutAt,
  showsResults,
  voidedIsoOf,
} from '../src/contract/at-instant.js'
import { toDateObject } from '../src/contract/date-object.js'
import { endedAt, startedAt, stateOf } from '../src/contract/state.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../src/contract/stored-records.js'

const NOW = Date.parse('2026-06-01T12:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()
const at = (ms: number) => toDateObject(ms)
/** The instant itself, a millisecond before and a millisecond after, with what a rule says at each. */
const AROUND = [
  [NOW - 1, 'before'],
  [NOW, 'at'],
  [NOW + 1, 'after'],
] as const

/** An activation of `type` created, updated, started and ended at the instants given (milliseconds). */
function activation(type: string, times: { created?: number; updated?: number; start?: number; end?: number }) {
  return {
    id: 'a1',
    type,
    createdAt: at(times.created ?? NOW - 10_000),
    updatedAt: at(times.updated ?? NOW - 5_000),
    startTime: at(times.start ?? NOW - 8_000),
    endTime: at(times.end ?? NOW + 8_000),
  } as unknown as StoredActivation
}
const entry = (fields: Record<string, unknown>) =>
  ({ id: 'e1', enteredAt: at(NOW - 1000), ...fields }) as unknown as StoredEntry

describe('an activation at the instant', () => {
  it('exists from its creation on, the instant of its creation included', () => {
    for (const [time, side] of AROUND)
      expect(activationExistsAt(activation('giveaway', { created: time }), iso(NOW)), side).toBe(side !== 'after')
  })

  it('shows its update from the instant of the update on, and its creation as its update before', () => {
    for (const [time, side] of AROUND) {
      const a = activation('giveaway', { created: NOW - 10_000, updated: time })
      expect(activationChangesAfter(a, iso(NOW)), side).toBe(side === 'after')
      const shown = activationAt(a, iso(NOW))
      if (side === 'after') {
        expect(shown).toEqual({ ...a, updatedAt: a.createdAt })
        expect(a.updatedAt).toEqual(at(time))
      } else expect(shown).toBe(a)
    }
  })

  it('is not started before its start, running from the instant of its start, ended from the instant of its end', () => {
    const a = activation('contest', { start: NOW, end: NOW + 100 })
    expect(stateOf(a, NOW - 1)).toBe('not_started')
    expect(stateOf(a, NOW)).toBe('running')
    expect(stateOf(a, NOW + 99)).toBe('running')
    expect(stateOf(a, NOW + 100)).toBe('ended')
    expect(stateOf(a, NOW + 101)).toBe('ended')
    for (const [time, side] of AROUND) {
      expect(startedAt(activation('contest', { start: time }), iso(NOW)), side).toBe(side !== 'after')
      expect(endedAt(activation('contest', { end: time }), iso(NOW)), side).toBe(side !== 'after')
    }
  })

  it("shows a ranked activation's results from the instant it ends, an unranked one's always", () => {
    for (const [time, side] of AROUND) {
      expect(resultsOutAt(activation('contest', { end: time }), iso(NOW)), side).toBe(side !== 'after')
      expect(resultsOutAt(activation('giveaway', { end: time }), iso(NOW)), side).toBe(true)
    }
  })
})

describe('an entry at the instant', () => {
  it('exists from the instant it was entered', () => {
    for (const [time, side] of AROUND)
      expect(entryExistsAt(entry({ enteredAt: at(time) }), iso(NOW)), side).toBe(side !== 'after')
  })

  it('reads its voiding and whether it shows results', () => {
    expect(voidedIsoOf(entry({}))).toBeUndefined()
    expect(voidedIsoOf(entry({ voidedAt: at(NOW) }))).toBe(iso(NOW))
    expect(showsResults(entry({}))).toBe(false)
    expect(showsResults(entry({ isWinner: false, prize: null, isFulfilled: false }))).toBe(false)
    expect(showsResults(entry({ rank: 0 }))).toBe(true)
    expect(showsResults(entry({ isWinner: true }))).toBe(true)
    expect(showsResults(entry({ prize: { name: 'a mug' } }))).toBe(true)
    expect(showsResults(entry({ isFulfilled: true }))).toBe(true)
  })

  it('is voided from the instant of its voiding on', () => {
    const giveaway = activation('giveaway', {})
    for (const [time, side] of AROUND) {
      const e = entry({ voidedAt: at(time), isWinner: true, prize: { name: 'a mug' } })
      expect(entryChangesAfter(e, giveaway, iso(NOW)), side).toBe(side === 'after')
      expect(changesAfterOf(iso(time), false, giveaway, iso(NOW)), side).toBe(side === 'after')
      const shown = entryAt(e, giveaway, iso(NOW))
      if (side === 'after') {
        expect(shown).toEqual({ ...e, voidedAt: undefined })
        expect('voidedAt' in shown).toBe(false)
        expect(voidedIsoOf(e)).toBe(iso(time))
      } else expect(shown).toBe(e)
    }
    expect(changesAfterOf(undefined, false, giveaway, iso(NOW))).toBe(false)
    expect(changesAfterOf(undefined, true, giveaway, iso(NOW))).toBe(false)
  })

  it('of a ranked activation shows its results from the instant it ends, and none before (no field added)', () => {
    const won = entry({ rank: 1, isWinner: true, prize: { name: 'a mug' }, isFulfilled: true })
    for (const [time, side] of AROUND) {
      const contest = activation('contest', { end: time })
      expect(entryChangesAfter(won, contest, iso(NOW)), side).toBe(side === 'after')
      expect(changesAfterOf(undefined, true, contest, iso(NOW)), side).toBe(side === 'after')
      expect(changesAfterOf(undefined, false, contest, iso(NOW)), side).toBe(false)
      const shown = entryAt(won, contest, iso(NOW))
      if (side === 'after') {
        expect(shown).toEqual({ id: 'e1', enteredAt: won.enteredAt, isWinner: false, prize: null, isFulfilled: false })
        expect('rank' in shown).toBe(false)
        expect((won as Record<string, unknown>).rank).toBe(1)
      } else expect(shown).toBe(won)
    }
    const ranked = entry({ rank: 2 })
    expect(entryAt(ranked, activation('contest', { end: NOW + 1 }), iso(NOW))).toEqual({
      id: 'e1',
      enteredAt: ranked.enteredAt,
    })
  })

  it('of a ranked activation that has ended loses only a voiding still to come', () => {
    const e = entry({ rank: 1, isWinner: true, prize: { name: 'a mug' }, voidedAt: at(NOW + 1) })
    const shown = entryAt(e, activation('contest', { end: NOW }), iso(NOW))
    expect(shown).toEqual({ id: 'e1', enteredAt: e.enteredAt, rank: 1, isWinner: true, prize: { name: 'a mug' } })
    // A voiding made at the instant itself stays while the results are hidden.
    const voidedNow = entry({ rank: 1, voidedAt: at(NOW) })
    expect(entryAt(voidedNow, activation('contest', { end: NOW + 1 }), iso(NOW))).toEqual({
      id: 'e1',
      enteredAt: voidedNow.enteredAt,
      voidedAt: at(NOW),
    })
    const both = entryAt(e, activation('contest', { end: NOW + 1 }), iso(NOW))
    expect(both).toEqual({ id: 'e1', enteredAt: e.enteredAt, isWinner: false, prize: null })
  })
})

describe("a participant's answers at the instant", () => {
  const participant = (times: number[]) =>
    ({
      id: 'p1',
      extras: times.map((time, n) => ({ question: `q${n}`, answeredAt: at(time) })),
    }) as unknown as StoredParticipant

  it('are those answered at or before it', () => {
    for (const [time, side] of AROUND) {
      const p = participant([NOW - 5, time])
      expect(participantChangesAfter(p, iso(NOW)), side).toBe(side === 'after')
      const extras = participantExtrasAt(p, iso(NOW))
      if (side === 'after') expect(extras).toEqual([p.extras[0]])
      else expect(extras).toBe(p.extras)
    }
    expect(participantChangesAfter(participant([]), iso(NOW))).toBe(false)
    // One answered at the instant itself is kept beside one still to come.
    expect(participantExtrasAt(participant([NOW, NOW + 1]), iso(NOW))).toEqual([
      { question: 'q0', answeredAt: at(NOW) },
    ])
    expect(participantExtrasAt(participant([NOW + 1, NOW - 1, NOW + 2]), iso(NOW))).toEqual([
      { question: 'q1', answeredAt: at(NOW - 1) },
    ])
  })
})
