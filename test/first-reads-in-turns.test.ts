/**
 * The first reads of a planned activation of 300,000 entries draw its skeleton (each entry's time,
 * person and outcome) in steps, the event loop having its turns between them: its first page of
 * entries, and the participants list's first page. Each answers what the same read answers once the
 * skeleton was drawn at once, and its most CPU time between two turns is a part of that drawing at
 * once, measured in the same run (never an absolute time).
 */
import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import type { ScenarioInput } from '../src/world/scenario.js'
import { NOW_ISO } from './support/api.js'
import { countTurns, cpuMs } from './support/loop-turns.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** The most CPU time between two turns may be at most this part of the skeleton drawn at once's (a step reads 65,536 entries a pass). */
const WORST_PART = 1 / 2

/** One running giveaway of 300,000 entries, over a pool of 500,000 people. */
const crowd: ScenarioInput = {
  name: 'crowd',
  description: 'One giveaway of 300,000 entries',
  seed: 46,
  accounts: [
    {
      name: 'crowd',
      apiKeys: ['crowd-key'],
      premium: true,
      people: 500_000,
      activations: [{ type: 'giveaway', subtype: 'instant_win', state: 'running', entries: 300_000 }],
    },
  ],
}

const get = (emulator: Emulator, path: string) =>
  getResponse(
    emulator.handlers,
    new Request(`${emulator.baseUrl}${path}`, { headers: { authorization: 'Api-Key crowd-key' } }),
  )

/** A fresh world and its activation's id, after a first answer that reads no skeleton (what it loads is loaded). */
async function fresh(): Promise<{ emulator: Emulator; id: string }> {
  const emulator = await createEmulator({ scenario: crowd, now: NOW_ISO })
  await get(emulator, '/activations/list?limit=1')
  return { emulator, id: emulator.db.index.activationsOf('crowd')[0]!.id }
}

/** The answer at `path` once the skeleton is drawn at once by `draw`, and the CPU time that drawing took. */
async function atOnce(path: (id: string) => string, draw: (emulator: Emulator, id: string) => unknown) {
  const { emulator, id } = await fresh()
  const started = cpuMs()
  draw(emulator, id)
  const ms = cpuMs() - started
  const body = await (await get(emulator, path(id)))!.text()
  await emulator.close()
  return { ms, body }
}

/**
 * Asks `path` of a fresh emulator while counting the loop's turns: the same answer as once the
 * skeleton was drawn at once by `draw`, more than 3 turns, the most CPU time between two a part of it.
 */
async function expectReadInTurns(path: (id: string) => string, draw: (emulator: Emulator, id: string) => unknown) {
  const expected = await atOnce(path, draw)
  const { emulator, id } = await fresh()
  const loop = countTurns()
  const response = await get(emulator, path(id))
  const { turns, worstCpu } = loop.stop()
  expect(response!.status).toBe(200)
  expect(await response!.text()).toBe(expected.body)
  expect(turns).toBeGreaterThan(3)
  expect(worstCpu).toBeLessThan(expected.ms * WORST_PART)
  await emulator.close()
}

describe('the first reads of a planned activation of 300,000 entries', () => {
  it('its first page of entries waits for its skeleton drawn in turns', () =>
    expectReadInTurns(
      (id) => `/activations/${id}?limit=1`,
      (emulator, id) => emulator.db.index.entryListsOf(id).all.length,
    ))

  it('the participants list’s first page waits for the skeleton drawn in turns', () =>
    expectReadInTurns(
      () => '/experience/participants?limit=100',
      (emulator) => emulator.db.index.participantsOf('crowd')[0],
    ))
})
