import { EmulatorError } from '../contract/emulator-error.js'
import * as z from 'zod'
import {
  activationAt,
  activationExistsAt,
  entryAt,
  entryExistsAt,
  participantChangesAfter,
  participantExtrasAt,
} from '../contract/at-instant.js'
import { activationTypeSchema, type ActivationType } from '../contract/enums.js'
import { problemLines } from '../contract/problems.js'
import {
  entryProblems,
  internalEntryShape,
  storedActivationSchema,
  storedParticipantSchema,
  type StoredActivation,
  type StoredEntry,
  type StoredParticipant,
  type World,
} from '../contract/stored-records.js'
import { parseScenario, type Scenario } from './scenario.js'
import type { WritableStore } from '../store/store.js'
import { atOnce, inTurns } from '../time/turns.js'

/**
 * The format marker of a dumped world. Version 2 added `recorded` on any record (a recorded world:
 * what the upstream sent, served back as it was); a world of version 1 is still read.
 */
export const DUMP_FORMAT = 'activation-emulator/world@2'

/** The format markers a dump may carry: every version this emulator reads. */
const DUMP_FORMATS_READ = ['activation-emulator/world@1', DUMP_FORMAT] as const

/** A world as `activation-emulator dump` writes it: the scenario it came from, its instant, and every record. */
export type WorldDump = {
  format: typeof DUMP_FORMAT
  /** The instant the world was built around: the clock starts there when the dump is served. */
  builtAt: string
  scenario: Scenario
} & World

/**
 * The store's world as it stands at the instant `at` (the clock's), as JSON in pieces (for a stream),
 * one record a line so that a hand edit is a one-line diff. What the API would not show at `at` is
 * left out or shown as it stood then (see src/contract/at-instant.ts), and `at` is the dump's
 * `builtAt`: served, the dump gives back the same answers. Entries come in their serving order,
 * activation by activation.
 * @example await pipeline(Readable.from(worldDumpChunks(emulator.db, emulator.scenario, emulator.clock.now())), createWriteStream('world.json'))
 */
export function* worldDumpChunks(db: WritableStore, scenario: Scenario, at: number): Generator<string> {
  const nowIso = new Date(at).toISOString()
  const head = { format: DUMP_FORMAT, builtAt: nowIso, scenario }
  yield `${JSON.stringify(head).slice(0, -1)},\n`
  const activations = (db.listed('activations') as StoredActivation[]).filter((a) => activationExistsAt(a, nowIso))
  yield* listChunks(
    'activations',
    activations.map((a) => activationAt(a, nowIso)),
  )
  yield ',\n'
  // Entries and participants one at a time: a planned world builds each as it is written, and
  // keeps none of them (a dump of ten million entries holds one activation's skeleton, not its records).
  yield* listChunks(
    'entries',
    (function* () {
      for (const a of activations) {
        // A planned bracket's lists are made from every entry first, in steps, an empty piece each.
        const steps = db.index.entryListsInSteps(a.id)
        while (steps?.next().done === false) yield undefined
        const all = db.index.entryListsOf(a.id).all
        for (let i = 0; i < all.length; i++) {
          const e = all[i]!
          if (entryExistsAt(e, nowIso)) yield entryAt(e, a, nowIso)
        }
      }
    })(),
  )
  yield ',\n'
  // Each participant with the instant of their first entry (ms): those who entered by `at`. A planned
  // world lists them off each account's whole order, made first in steps, an empty piece each, so that
  // a stream gives the event loop its turns between them.
  const accounts = scenario.accounts.map((a) => a.name)
  for (const account of accounts) {
    const steps = db.index.participantsOrderedInSteps(account)
    while (steps?.next().done === false) yield ''
  }
  const writer = db
  const participants =
    writer.unloadedParticipants(accounts) ??
    (writer.listed('participants') as StoredParticipant[]).map((p) => {
      const first = db.index.firstEnteredAt(p.id)
      return [p, first ? Date.parse(first.iso) : -Infinity] as const
    })
  yield* listChunks(
    'participants',
    (function* () {
      for (const [p, first] of participants) {
        if (first > at) continue
        yield participantChangesAfter(p, nowIso) ? { ...p, extras: participantExtrasAt(p, nowIso) } : p
      }
    })(),
  )
  yield '\n}\n'
}

/**
 * A world dump as JSON in pieces, in the same form `worldDumpChunks` writes (one record a line): for a
 * world made outside a store, such as a recording's.
 * @example await writeFile('world.json', [...worldDumpText(dump)].join(''))
 */
export function* worldDumpText(dump: WorldDump): Generator<string> {
  const head = { format: dump.format, builtAt: dump.builtAt, scenario: dump.scenario }
  yield `${JSON.stringify(head).slice(0, -1)},\n`
  yield* listChunks('activations', dump.activations)
  yield ',\n'
  yield* listChunks('entries', dump.entries)
  yield ',\n'
  yield* listChunks('participants', dump.participants)
  yield '\n}\n'
}

/** A JSON list of `records` in chunks; an undefined among them is a step of other work, an empty chunk (a stream's turn may end there). */
function* listChunks(key: string, records: Iterable<object | undefined>): Generator<string> {
  yield `"${key}":[`
  let chunk = ''
  let count = 0
  for (const record of records) {
    if (record === undefined) {
      yield ''
      continue
    }
    chunk += `${count++ === 0 ? '\n' : ',\n'}${JSON.stringify(record)}`
    if (chunk.length > 1 << 16) {
      yield chunk
      chunk = ''
    }
  }
  yield `${chunk}${count ? '\n' : ''}]`
}

/** An entry's internal fields (its type's fields are checked once its activation's type is known). Built once: a zod schema compiles on first use. */
const internalsSchema = z.looseObject(internalEntryShape)

const dumpHeadSchema = z.looseObject({
  format: z.enum(DUMP_FORMATS_READ, { error: `format must be "${DUMP_FORMAT}" (or an earlier version)` }),
  builtAt: z.iso.datetime(),
  scenario: z.unknown(),
  activations: z.array(z.unknown()),
  entries: z.array(z.unknown()),
  participants: z.array(z.unknown()),
})

/**
 * Validates a dumped world: its format, its scenario, and every record against the contract (each
 * entry against its activation's type). Throws one error listing the problems found (at most 20),
 * each with its path, such as `entries[12].prize`.
 * @example const dump = parseWorldDump(JSON.parse(text), 'world.json')
 */
export function parseWorldDump(input: unknown, source = 'world dump'): WorldDump {
  return atOnce(worldDumpChecks(input, source))
}

/**
 * `parseWorldDump`, giving the event loop its turns between records: for a server that checks a large
 * dump (a sandbox's `data`) while it answers other requests.
 * @example const dump = await parseWorldDumpInTurns(body.data, 'data')
 */
export function parseWorldDumpInTurns(input: unknown, source = 'world dump'): Promise<WorldDump> {
  return inTurns(worldDumpChecks(input, source))
}

/**
 * The most problems a dump's check lists: it stops there, so that a file of a million bad records
 * costs what its first bad ones do, not a million lists of issues.
 */
const SHOWN_PROBLEMS = 20

/** The checks of `parseWorldDump`, as steps: it yields after each record. */
function* worldDumpChecks(input: unknown, source: string): Generator<void, WorldDump> {
  const fail = (problems: string[], stopped = false) => {
    const shown = problems.slice(0, SHOWN_PROBLEMS)
    const more = stopped
      ? `\n  ...the check stops at the first ${SHOWN_PROBLEMS} problems`
      : problems.length > shown.length
        ? `\n  ...and ${problems.length - shown.length} more`
        : ''
    return new EmulatorError('bad_option', `Invalid ${source}:\n  ${shown.join('\n  ')}${more}`)
  }
  // After each record: past SHOWN_PROBLEMS, the rest of a bad dump is not checked.
  const enough = () => {
    if (problems.length >= SHOWN_PROBLEMS) throw fail(problems, true)
  }
  const problems: string[] = []
  const head = dumpHeadSchema.safeParse(input)
  if (!head.success) throw fail(problemLines(head.error.issues))
  let scenario: Scenario
  try {
    scenario = parseScenario(head.data.scenario, 'scenario')
  } catch (error) {
    throw fail([(error as Error).message.replace(/\n\s*/g, ' ')])
  }

  const check = <T>(schema: z.ZodType<T>, value: unknown, path: string): T | undefined => {
    const result = schema.safeParse(value)
    if (result.success) return result.data
    // One at a time: a record's issues are as many as its lists' bad items, past what a spread's arguments hold.
    for (const line of problemLines(result.error.issues, path)) problems.push(line)
    return undefined
  }
  const activations: Array<StoredActivation | undefined> = []
  for (const [i, a] of head.data.activations.entries()) {
    activations.push(check(storedActivationSchema, a, `activations[${i}]`))
    enough()
    yield
  }
  // Entries are checked against their activation's type even when that activation has problems of its own.
  const types = new Map<string, ActivationType>()
  for (const raw of head.data.activations) {
    const { id, type } = (raw ?? {}) as { id?: unknown; type?: unknown }
    if (typeof id === 'string' && activationTypeSchema.safeParse(type).success) types.set(id, type as ActivationType)
  }
  const entries: Array<StoredEntry | undefined> = []
  for (const [i, e] of head.data.entries.entries()) {
    entries.push(entryChecked(e, `entries[${i}]`))
    enough()
    yield
  }
  function entryChecked(e: unknown, path: string): StoredEntry | undefined {
    const internals = check(internalsSchema, e, path)
    if (!internals) return undefined
    const type = types.get(internals.activationId)
    if (!type) {
      problems.push(`${path}.activationId: no activation has the id ${internals.activationId}`)
      return undefined
    }
    const found = entryProblems(internals, type, path)
    for (const line of found) problems.push(line)
    return found.length ? undefined : (e as StoredEntry)
  }
  const participants: Array<StoredParticipant | undefined> = []
  for (const [i, p] of head.data.participants.entries()) {
    participants.push(check(storedParticipantSchema, p, `participants[${i}]`))
    enough()
    yield
  }
  if (problems.length) throw fail(problems)
  return {
    format: DUMP_FORMAT,
    builtAt: head.data.builtAt,
    scenario,
    activations: activations as StoredActivation[],
    entries: entries as StoredEntry[],
    participants: participants as StoredParticipant[],
  }
}
