/**
 * An incremental export polls a live world while its clock moves: it sees every entry exactly once,
 * including those that arrive between its pages, whether it resumes with `next` or with `start_date`.
 * New entries come last in an activation's serving order, so a walk reaches them.
 */
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { NOW_ISO } from '../support/api.js'
import { fetchText, viewAt } from '../support/served.js'
import { TEST_MS } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const FC_SEED = process.env.FC_SEED === 'random' ? Date.now() : Number(process.env.FC_SEED ?? 20261122)

async function page(emulator: Emulator, path: string): Promise<{ entries: any[]; next: string | null }> {
  const answer = await fetchText(emulator, path)
  expect(answer.status, answer.text).toBe(200)
  return JSON.parse(answer.text)
}

/** Pauses drawn from the seed: between pages up to 10 minutes, between polls up to 3 hours. */
function pauses(seed: number) {
  const between = fc.sample(fc.integer({ min: 0, max: 10 * 60_000 }), { numRuns: 10_000, seed })
  const polls = fc.sample(fc.integer({ min: 1, max: 3 * 3_600_000 }), { numRuns: 1_000, seed: seed + 1 })
  let i = 0
  let j = 0
  return { page: () => between[i++ % between.length]!, poll: () => polls[j++ % polls.length]! }
}

/** Running activations of the default world, and the ids the API shows of one's entries now (a plain scan of the store). */
async function liveDefault(): Promise<{ emulator: Emulator; running: string[] }> {
  const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO, live: true })
  const now = emulator.clock.now()
  const running = emulator.db.activations
    .all()
    .filter((a) => Date.parse(a.startTime.iso) <= now && Date.parse(a.endTime.iso) > now + 12 * 3_600_000)
    .map((a) => a.id)
  return { emulator, running }
}

const shown = (emulator: Emulator, id: string) =>
  viewAt(emulator)
    .entries.filter((e) => e.activationId === id)
    .map((e) => e.id)

describe('a client polling a live world', () => {
  it('sees every entry exactly once when it resumes with next (the last id it saw)', async () => {
    const { emulator, running } = await liveDefault()
    const pause = pauses(FC_SEED)
    for (const id of running.slice(0, 3)) {
      const seen: string[] = []
      let resume: string | null = null
      for (let round = 0; round < 12; round++) {
        let next = resume
        let first = true
        do {
          const body = await page(emulator, `/activations/${id}?limit=25${next === null ? '' : `&next=${next}`}`)
          let ids = body.entries.map((e) => e.id as string)
          // Resuming from the last entry seen: the page starts with it.
          if (first && resume !== null) {
            expect(ids[0]).toBe(resume)
            ids = ids.slice(1)
          }
          first = false
          seen.push(...ids)
          emulator.clock.advance(pause.page())
          next = body.next
        } while (next !== null)
        resume = seen.at(-1) ?? null
        if (round < 11) emulator.clock.advance(pause.poll())
      }
      expect(new Set(seen).size).toBe(seen.length)
      const now = shown(emulator, id)
      // Whatever arrived after the last page of the last poll is for the next poll.
      expect(seen).toEqual(now.slice(0, seen.length))
      expect(seen.length).toBeGreaterThan(300)
      const after = await page(emulator, `/activations/${id}?limit=1000&next=${resume}`)
      expect([...seen, ...after.entries.slice(1).map((e) => e.id)]).toEqual(now)
    }
  })

  it('sees every entry exactly once when it resumes with start_date (the second of the last entry it saw), dropping only repeats from that second', async () => {
    const { emulator, running } = await liveDefault()
    const pause = pauses(FC_SEED + 7)
    for (const id of running.slice(0, 3)) {
      const seen: string[] = []
      const seenSet = new Set<string>()
      let since: string | null = null
      let repeats = 0
      for (let round = 0; round < 12; round++) {
        let next: string | null = null
        do {
          const query = `limit=25${since === null ? '' : `&start_date=${since}`}${next === null ? '' : `&next=${next}`}`
          const body = await page(emulator, `/activations/${id}?${query}`)
          for (const entry of body.entries) {
            if (seenSet.has(entry.id)) {
              // Only entries of the second asked for again come back.
              expect(entry.enteredAt.iso.slice(0, 19)).toBe(since)
              repeats++
              continue
            }
            seenSet.add(entry.id)
            seen.push(entry.id)
          }
          emulator.clock.advance(pause.page())
          next = body.next
        } while (next !== null)
        const last = seen.at(-1)
        if (last !== undefined) since = emulator.db.index.entries.get(last)!.enteredAt.iso.slice(0, 19)
        if (round < 11) emulator.clock.advance(pause.poll())
      }
      const now = shown(emulator, id)
      expect(seen).toEqual(now.slice(0, seen.length))
      expect(seen.length).toBeGreaterThan(300)
      expect(repeats).toBeGreaterThan(0)
    }
  })
})
