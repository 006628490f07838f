import { getResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { parseWorldDump } from '../../src/world/dump.js'
import { worldFromRecording } from '../../src/world/from-recording.js'
import { RECORDING_FORMAT, type RecordedAccount, type RecordedPage, type Recording } from '../../src/world/recording.js'
import { TYPE_RULES } from '../../src/contract/type-rules.js'
import { FILTER_TYPES } from '../../src/contract/enums.js'
import { NOW_ISO } from '../support/api.js'

// A built-in scenario recorded from an emulator, then served from the recorded world: every page the
// recording read, and every filter of every endpoint, must come back byte for byte.

const LIMITS = { activations: 100, entries: 1000, participants: 100 }

async function ask(emulator: Emulator, path: string, key: string): Promise<{ status: number; text: string }> {
  const request = new Request(`${emulator.baseUrl}${path}`, { headers: { authorization: `Api-Key ${key}` } })
  const response = await getResponse(emulator.handlers, request)
  if (!response) throw new Error(`No handler answered ${path}`)
  return { status: response.status, text: await response.text() }
}

async function pages(emulator: Emulator, path: string, key: string): Promise<RecordedPage[]> {
  const out: RecordedPage[] = []
  let next: string | null = null
  do {
    const asked: string = next === null ? path : `${path}&next=${encodeURIComponent(next)}`
    const { status, text } = await ask(emulator, asked, key)
    const body = JSON.parse(text) as { next?: string | null }
    out.push({ path: asked, status, body })
    next = status === 200 ? (body.next ?? null) : null
  } while (next !== null)
  return out
}

/** A plain, sequential recording of an emulator's accounts (the walker's job, done simply). */
async function recordEmulator(emulator: Emulator, keys: string[]): Promise<Recording> {
  const accounts: RecordedAccount[] = []
  for (const key of keys) {
    const activations = await pages(emulator, `/activations/list?limit=${LIMITS.activations}`, key)
    const account: RecordedAccount = {
      apiKey: key,
      premium: true,
      activations,
      entries: {},
      participants: [],
      completed: {},
      winners: {},
      states: {},
    }
    for (const state of ['not_started', 'running', 'ended'] as const) {
      account.states![state] = await pages(emulator, `/activations/list?state=${state}&limit=100`, key)
    }
    for (const page of activations) {
      for (const a of (page.body as { activations: Array<{ id: string; type: keyof typeof TYPE_RULES }> })
        .activations) {
        const at = `/activations/${encodeURIComponent(a.id)}?limit=${LIMITS.entries}`
        account.entries[a.id] = await pages(emulator, at, key)
        if (TYPE_RULES[a.type].completion) account.completed[a.id] = await pages(emulator, `${at}&is_completed=1`, key)
        if (TYPE_RULES[a.type].winners === 'allCorrect')
          account.winners[a.id] = await pages(emulator, `${at}&is_winner=1`, key)
      }
    }
    const participants = await pages(emulator, `/experience/participants?limit=${LIMITS.participants}`, key)
    if (participants[0]?.status === 403) account.premium = false
    else account.participants = participants
    accounts.push(account)
  }
  const now = new Date().toISOString()
  return {
    format: RECORDING_FORMAT,
    from: emulator.baseUrl,
    limits: LIMITS,
    startedAt: now,
    finishedAt: now,
    serverDate: now,
    accounts,
  }
}

/** Every filter of every endpoint worth asking of a world, for an account whose activations are `activations`. */
function filteredPaths(activations: Array<{ id: string; type: string; startTime: { iso: string } }>): string[] {
  const paths = [
    '/activations/list',
    '/activations/list?limit=3',
    ...['not_started', 'running', 'ended'].map((s) => `/activations/list?state=${s}&limit=7`),
    ...FILTER_TYPES.map((t) => `/activations/list?types[]=${t}`),
    '/activations/latest',
    '/activations/latest?limit=5',
    ...FILTER_TYPES.map((t) => `/activations/latest?types[]=${t}&limit=10`),
    '/experience/participants',
    '/experience/participants?limit=7',
    '/experience/participants?start_date=2026-05-20&limit=100',
    '/experience/participants?end_date=2026-05-25&limit=100',
    '/experience/participants?last_updated_since=2026-05-01&limit=100',
  ]
  for (const a of activations.slice(0, 40)) {
    const at = `/activations/${encodeURIComponent(a.id)}`
    const day = a.startTime.iso.slice(0, 10)
    paths.push(
      `/activations/list?start_date=${day}`,
      at,
      `${at}?limit=7`,
      `${at}?is_winner=1&limit=50`,
      `${at}?is_completed=1&limit=50`,
      `${at}?is_winner=1&is_completed=1`,
      `${at}?bracket_round=1&limit=50`,
      `${at}?bracket_round=2&bracket_seed=1`,
      `${at}?bracket_seed=3`,
      `${at}?start_date=${day}&limit=20`,
      `${at}?start_date=${day}T12:00:00&limit=20`,
    )
  }
  return paths
}

describe.each(['default', 'every-type', 'edge-cases', 'multi-account', 'no-premium', 'undocumented-types'])(
  'the %s scenario, recorded from an emulator and served from the recording',
  (scenario) => {
    it('answers every page it recorded and every filter with the same bytes', async () => {
      const upstream = await createEmulator({ scenario, now: NOW_ISO, cache: false })
      const keys = upstream.scenario.accounts.map((a) => a.apiKeys[0]!)
      const recording = await recordEmulator(upstream, keys)
      const made = worldFromRecording(recording)
      expect(made.problems).toEqual([])
      expect(made.oddFields).toEqual([])
      expect(made.unknownFields).toEqual([])
      expect(made.dump.builtAt <= NOW_ISO).toBe(true)
      // Through JSON and the dump's own checks, as `--data world.json` reads it.
      const served = await createEmulator({ data: parseWorldDump(JSON.parse(JSON.stringify(made.dump))), cache: false })
      let compared = 0
      for (const [a, account] of recording.accounts.entries()) {
        const key = `recorded-key-${a + 1}`
        const recordedPages = [
          ...account.activations,
          ...Object.values(account.entries).flat(),
          ...account.participants,
          ...Object.values(account.completed).flat(),
          ...Object.values(account.winners).flat(),
        ]
        for (const page of recordedPages) {
          const answer = await ask(served, page.path, key)
          expect(answer.status, page.path).toBe(page.status)
          expect(answer.text, page.path).toBe(JSON.stringify(page.body))
          compared++
        }
        const listed = account.activations.flatMap((p) => (p.body as { activations: never[] }).activations)
        for (const path of filteredPaths(listed)) {
          const want = await ask(upstream, path, keys[a]!)
          const got = await ask(served, path, key)
          expect(`${got.status} ${got.text}`, path).toBe(`${want.status} ${want.text}`)
          compared++
        }
      }
      expect(compared).toBeGreaterThan(50)
      upstream.close()
      served.close()
    }, 120_000)
  },
)
