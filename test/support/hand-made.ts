import { toDateObject } from '../../src/contract.js'
import { worldDumpChunks } from '../../src/world/dump.js'
import { storeOf } from './store-of.js'
import { createEmulator, type Emulator, type ScenarioInput, type WorldDump } from '../../src/index.js'
import { NOW_ISO } from './api.js'

// Small hand-made worlds at the edges: a test writes the exact times and flags it needs into a tiny
// generated world, serves it as a dump, and takes its expected answers from a plain scan of the
// records it wrote, never from the store's indexes.

/** The key of the one account of a hand-made world. */
export const HAND_KEY = 'hand-key'

/** One group of activations of a scenario. */
export type Group = ScenarioInput['accounts'][number]['activations'] extends (infer G)[] | undefined ? G : never

/** A one-account world of these groups, edited by hand, then served exactly as edited. */
export async function handMade(groups: Group[], edit: (world: WorldDump) => void): Promise<Emulator> {
  const base = await createEmulator({
    scenario: {
      name: 'hand-made',
      description: 'A tiny world for one edge',
      seed: 11,
      accounts: [{ name: 'hand', apiKeys: [HAND_KEY], people: 60, activations: groups }],
    },
    now: NOW_ISO,
  })
  const dump = JSON.parse([...worldDumpChunks(storeOf(base), base.scenario, base.builtAt)].join('')) as WorldDump
  edit(dump)
  return createEmulator({ data: dump })
}

/** The DateObject of an ISO instant. */
export const at = (iso: string) => toDateObject(Date.parse(iso))

/** The ISO instant `ms` milliseconds after (before, if negative) `iso`. */
export const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString()
