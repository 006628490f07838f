/**
 * What fault rules may hold together, each at its limit and one past it: 1,000 rules an emulator, and
 * 2 MB of their own answers' bodies and headers; and the changes a bundle keeps, within 8 MB: a suite
 * that adds and removes large rules over and over does not grow the emulator without a bound.
 */
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { NOW_ISO as NOW } from '../support/api.js'

/** MAX_RULES and MAX_ANSWER_BYTES (src/emulator/fault-rules.ts), MOST_CHANGE_BYTES (control-log.ts). */
const RULES = 1000
const ANSWER_BYTES = 2 * 1024 * 1024
const CHANGE_BYTES = 8 * 1024 * 1024
const LARGEST_BODY = 512 * 1024

describe('fault rules together', () => {
  it('an emulator holds 1,000 rules; the 1,001st is refused, naming the bound, and nothing is added', async () => {
    const emulator = await createEmulator({ scenario: 'empty', now: NOW })
    for (let i = 0; i < RULES; i++) emulator.faults.add({ status: 503, times: 1 })
    expect(emulator.faults.list().length).toBe(RULES)
    expect(() => emulator.faults.add({ status: 503 })).toThrow(
      'Invalid fault rule: an emulator holds at most 1000 rules: remove some first',
    )
    expect(emulator.faults.list().length).toBe(RULES)
    emulator.faults.remove('rule-1')
    expect(emulator.faults.add({ status: 500 }).id).toBe('rule-1001')
  })

  it("the rules' answers hold 2 MB together: exactly that is taken, one byte more refused", async () => {
    const emulator = await createEmulator({ scenario: 'empty', now: NOW })
    const body = 'x'.repeat(LARGEST_BODY)
    for (let i = 0; i < ANSWER_BYTES / LARGEST_BODY - 1; i++) emulator.faults.add({ answer: { status: 502, body } })
    // The last quarter: a body and a header whose name and value make up exactly what is left.
    const last = { status: 502, headers: { 'x-a': 'b'.repeat(100) }, body: 'x'.repeat(LARGEST_BODY - 103) }
    expect(() => emulator.faults.add({ answer: { ...last, body: `${last.body}x` } })).toThrow(
      `Invalid fault rule: the rules' answers may hold at most ${ANSWER_BYTES} bytes (2 MB) together; they hold ${ANSWER_BYTES - LARGEST_BODY}, and this one ${LARGEST_BODY + 1}: remove some first`,
    )
    emulator.faults.add({ answer: last })
    expect(() => emulator.faults.add({ answer: { status: 200, body: 'x' } })).toThrow('at most 2097152 bytes (2 MB)')
    // A rule without an answer holds none of it; removing one makes room.
    emulator.faults.add({ status: 503 })
    emulator.faults.remove('rule-1')
    emulator.faults.add({ answer: { status: 200, body } })
    expect(emulator.faults.list().length).toBe(5)
  })

  it('a bundle keeps the changes within 8 MB: past it the oldest go, and it says it is not complete', async () => {
    const emulator = await createEmulator({ scenario: 'empty', now: NOW })
    const body = 'x'.repeat(LARGEST_BODY)
    // Each added rule's change is its JSON (a little over 512 KB), counted twice: about 1 MB each.
    for (let i = 0; i < 7; i++) {
      emulator.faults.add({ answer: { status: 502, body } })
      emulator.faults.clear()
    }
    const within = await emulator.bundle()
    expect(within.changes.complete).toBe(true)
    expect(within.changes.list.filter((c) => c.change === 'faultAdded').length).toBe(7)
    emulator.faults.add({ answer: { status: 502, body } })
    const past = await emulator.bundle()
    expect(past.changes.complete).toBe(false)
    const kept = past.changes.list
    expect(kept.at(-1)).toMatchObject({ change: 'faultAdded' })
    expect(2 * kept.reduce((sum, c) => sum + JSON.stringify(c).length, 0)).toBeLessThanOrEqual(CHANGE_BYTES)
    // A reset forgets them, and the log is whole again.
    await emulator.reset()
    expect((await emulator.bundle()).changes).toEqual({ complete: true, list: [] })
  })
})
