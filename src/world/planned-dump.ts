import * as z from 'zod'
import { EmulatorError } from '../contract/emulator-error.js'
import { problemLines } from '../contract/problems.js'
import { WorldStore } from '../store/world-store.js'
import { fakerLoadsWhenNeeded, loadFaker } from '../time/random.js'
import { DUMP_FORMAT, worldDumpChunks } from './dump.js'
import { planWorld } from './planned-world.js'
import { parseScenario, type Scenario } from './scenario.js'

/**
 * The head of a dump (the first line `worldDumpChunks` writes): its format, the instant its world was
 * built around, and the scenario that made it. A dump of a generated world is what its scenario plans
 * at that instant, so the head alone can serve it again (see `plannedDumpChunks`).
 */
export type DumpHead = { format: typeof DUMP_FORMAT; builtAt: string; scenario: Scenario }

const headSchema = z.looseObject({
  format: z.literal(DUMP_FORMAT, {
    error: `format must be "${DUMP_FORMAT}" (a dump of this version, whose worlds this emulator makes)`,
  }),
  builtAt: z.iso.datetime(),
  scenario: z.unknown(),
})

/**
 * Validates a dump's head. Throws one error listing its problems.
 * @example const head = parseDumpHead(JSON.parse(firstLine.replace(/,\n$/, '}')), 'world.json')
 */
export function parseDumpHead(input: unknown, source = 'world dump'): DumpHead {
  const head = headSchema.safeParse(input)
  if (!head.success) {
    throw new EmulatorError('bad_option', `Invalid ${source}: ${problemLines(head.error.issues).join('; ')}`)
  }
  return {
    format: DUMP_FORMAT,
    builtAt: head.data.builtAt,
    scenario: parseScenario(head.data.scenario, `${source}'s scenario`),
  }
}

/**
 * The bytes (as JSON in pieces) of the dump that the head's scenario makes at its instant: the world
 * planned as `createEmulator` plans it, written as `activation-emulator dump` writes it. The world is
 * planned: each record built as it is written and kept no longer, so a dump of any size can be
 * compared with it piece by piece.
 * @example for (const chunk of await plannedDumpChunks(head)) compare(chunk)
 */
export async function plannedDumpChunks(head: DumpHead): Promise<Generator<string>> {
  if (!fakerLoadsWhenNeeded()) await loadFaker()
  const builtAt = Date.parse(head.builtAt)
  const db = await WorldStore.load(planWorld(head.scenario, builtAt))
  return worldDumpChunks(db, head.scenario, builtAt)
}
