import type * as z from 'zod'
import { ACTIVATION_KEYS, activationShape } from '../contract/activation.js'
import { activationAt, entryAt } from '../contract/at-instant.js'
import { EmulatorError } from '../contract/emulator-error.js'
import { commonEntryShape, ENTRY_KEYS, entryFieldsByType } from '../contract/entry.js'
import { activationTypeSchema, UNLISTED_TYPES } from '../contract/enums.js'
import { participantSchema } from '../contract/participant.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import { TYPE_RULES } from '../contract/type-rules.js'
import { DUMP_FORMAT, type WorldDump } from './dump.js'
import { fitActivationRules, inferConfig } from './recorded-activation.js'
import { isObject, itemsOf, PathCounts, pick, rebuild, recordedOf, type Raw } from './recorded-fields.js'
import { recordedInstant } from './recorded-instant.js'
import { pinDerivedParticipantFields } from './recorded-participants.js'
import { pagesFor, pagesOf, type RecordedAccount, type Recording } from './recording.js'
import { parseScenario } from './scenario.js'

// A recording (every page an upstream sent) turned into a world that serves the same pages back.
// The API sends less than the store keeps, so some of the store's fields are rebuilt from what it
// does send: an activation's account (the key it was read with) and set-up (prizes, questions,
// choices, bracket: from its entries, and its question count from the is_winner / is_completed pages),
// an entry's participant (joined by e-mail) and, for trivia and pick'em, whether it answered every
// question (from the is_completed pages). Whatever the upstream sent that the emulator does not know,
// or sent in another form, is kept on the record (`recorded`) and served back as it was sent.

/** What `worldFromRecording` makes: the world as a dump, and what it noticed, one line each. */
export type RecordedWorld = {
  dump: WorldDump
  /** Fields sent in another form than the schema allows (each path once, with a count), kept as sent. */
  oddFields: string[]
  /** Fields the emulator does not know, kept and served back as sent: each path once, with a count. */
  unknownFields: string[]
  /** What could not be kept (an activation of a type the emulator does not know...). */
  problems: string[]
}

export type WorldFromRecordingOptions = {
  /** Write the recorded API keys into the world (default: `recorded-key-1`, `recorded-key-2`... one per account). */
  keepApiKeys?: boolean
  /** The instant the world is served at; by default the latest the recording allows (see `recordedInstant`). */
  builtAt?: string
}

/**
 * Turns a recording into a world that `--data` serves: every page recorded, asked again at the
 * recorded `limit`, comes back with the same JSON, field for field and in the same order.
 * @example const { dump } = worldFromRecording(recording); await writeFile('world.json', JSON.stringify(dump))
 */
export function worldFromRecording(recording: Recording, options: WorldFromRecordingOptions = {}): RecordedWorld {
  if (recording.accounts.length === 0) throw new EmulatorError('bad_input', 'The recording has no account')
  const builtAt = options.builtAt ?? recordedInstant(recording)
  const odd = new PathCounts()
  const odds = new Map<string, string>()
  const unknown = new PathCounts()
  const problems: string[] = []
  const activations: StoredActivation[] = []
  const entries: StoredEntry[] = []
  const participants: StoredParticipant[] = []
  const accounts: unknown[] = []
  const activationIds = new Set<string>()
  const entryIds = new Set<string>()
  const participantIds = new Set<string>()
  let undocumented = false
  // The keys of each participant pinned when read; their derived fields are compared once every entry is in.
  const pinnedLater = new Map<StoredParticipant, string[]>()

  const PAGE_KEYS = new Set(['activations', 'activation', 'entries', 'participants', 'next'])
  const pageKeys = new PathCounts()
  recording.accounts.forEach((account: RecordedAccount, a) => {
    const name = `recorded-${a + 1}`
    for (const page of pagesOf(account)) {
      if (isObject(page.body)) for (const key of Object.keys(page.body)) if (!PAGE_KEYS.has(key)) pageKeys.add(key)
    }
    accounts.push({
      name,
      apiKeys: [options.keepApiKeys ? account.apiKey : `recorded-key-${a + 1}`],
      premium: account.premium,
    })
    // Participants first: entries join them by e-mail.
    const byEmail = new Map<string, StoredParticipant>()
    const participantRaws = new Map<StoredParticipant, Raw>()
    const participantShape = { ...participantSchema.shape } as Record<string, z.ZodType>
    delete participantShape.activationsEntered
    delete participantShape.firstEnteredAt
    for (const raw of itemsOf(account.participants, 'participants')) {
      const built = rebuild(participantShape, raw, 'participants[]', odd, odds, unknown, problems, [
        'activationsEntered',
        'firstEnteredAt',
      ])
      if (!built) continue
      const p = { ...built.value, account: name } as StoredParticipant
      if (participantIds.has(p.id)) {
        problems.push(`participant ${JSON.stringify(p.id)} is listed twice: its second listing is left out`)
        continue
      }
      participantIds.add(p.id)
      participants.push(p)
      participantRaws.set(p, raw)
      pinnedLater.set(p, built.pinned)
      if (!byEmail.has(p.email)) byEmail.set(p.email, p)
    }

    const listed = itemsOf(account.activations, 'activations')
    for (const raw of listed) {
      const type = activationTypeSchema.safeParse(raw.type)
      if (!type.success) {
        problems.push(
          `activation ${JSON.stringify(raw.id)} has the type ${JSON.stringify(raw.type)}, which the emulator does not know: it is left out`,
        )
        continue
      }
      const built = rebuild(
        activationShape as Record<string, z.ZodType>,
        raw,
        'activations[]',
        odd,
        odds,
        unknown,
        problems,
      )
      if (!built) continue
      const value = built.value as StoredActivation
      if (activationIds.has(value.id)) {
        problems.push(`activation ${JSON.stringify(value.id)} is listed twice: its second listing is left out`)
        continue
      }
      activationIds.add(value.id)
      if ((UNLISTED_TYPES as readonly string[]).includes(value.type)) undocumented = true
      fitActivationRules(value, built.pinned)
      const pages = pagesFor(account.entries, value.id) ?? []
      const entryRaws = itemsOf(pages, 'entries')
      const rules = TYPE_RULES[value.type]
      const completedIds =
        pagesFor(account.completed, value.id) &&
        new Set(itemsOf(pagesFor(account.completed, value.id), 'entries').map((e) => e.id))
      let questionCount: number | null = null
      if (rules.questions) {
        const known =
          rules.winners === 'allCorrect'
            ? itemsOf(pagesFor(account.winners, value.id), 'entries')
            : itemsOf(pagesFor(account.completed, value.id), 'entries')
        const correct = entryRaws.map((e) => (typeof e.totalCorrect === 'number' ? e.totalCorrect : 0))
        const first = known[0]?.totalCorrect
        questionCount = typeof first === 'number' && first >= 1 ? first : Math.max(0, ...correct) + 1
      }
      const activation: StoredActivation = { ...value, account: name, config: inferConfig(value, [], null) }
      const entryShape = { ...commonEntryShape, ...entryFieldsByType[value.type] } as Record<string, z.ZodType>
      const mine: Array<{ entry: StoredEntry; raw: Raw; pinned: string[] }> = []
      for (const entryRaw of entryRaws) {
        const built = rebuild(entryShape, entryRaw, `entries[${value.type}]`, odd, odds, unknown, problems)
        if (!built) continue
        const e = built.value as StoredEntry & Raw
        if (entryIds.has(e.id)) {
          problems.push(`entry ${JSON.stringify(e.id)} is listed twice: its second listing is left out`)
          continue
        }
        entryIds.add(e.id)
        let person = byEmail.get(e.email)
        if (!person) {
          // No participants list (no premium feature), or a person it does not list: one made from the entry.
          let id = `${name}-person-${byEmail.size + 1}`
          while (participantIds.has(id)) id += '-'
          participantIds.add(id)
          person = { id, email: e.email, firstName: e.firstName, lastName: e.lastName, extras: [], account: name }
          byEmail.set(e.email, person)
          participants.push(person)
        }
        const entry = { ...e, activationId: activation.id, participantId: person.id } as StoredEntry
        if (rules.completion === 'allAnswered' && completedIds && questionCount !== null) {
          entry.questionsAnswered = completedIds.has(e.id) ? questionCount : questionCount - 1
        }
        mine.push({ entry, raw: entryRaw, pinned: built.pinned })
      }
      // The set-up from the entries as the store keeps them (a field sent in another form made to fit).
      activation.config = inferConfig(
        value,
        mine.map((m) => m.entry as unknown as Raw),
        questionCount,
      )
      const recorded = recordedOf(raw, pick(activationAt(activation, builtAt), ACTIVATION_KEYS), built.pinned)
      if (recorded) activation.recorded = recorded
      activations.push(activation)
      for (const { entry, raw: entryRaw, pinned } of mine) {
        const made = pick(entryAt(entry, activation, builtAt), ENTRY_KEYS[activation.type])
        const recorded = recordedOf(entryRaw, made, pinned)
        if (recorded) entry.recorded = recorded
        entries.push(entry)
      }
    }

    // What the participants list derives from entries, compared with what was sent.
    pinDerivedParticipantFields(participantRaws, pinnedLater, activations, entries, builtAt, problems)
  })

  for (const line of pageKeys.lines((key, n) => `${key} (${n} page${n === 1 ? '' : 's'})`)) {
    problems.push(`a page's own field ${line}: a world keeps records, not pages, so it is not served back`)
  }
  const scenario = parseScenario(
    {
      name: 'recorded',
      description: `Recorded from ${recording.from} (${recording.startedAt} to ${recording.finishedAt})`,
      seed: 1,
      accounts,
      undocumentedTypes: undocumented,
    },
    'recorded scenario',
  )
  return {
    dump: { format: DUMP_FORMAT, builtAt, scenario, activations, entries, participants },
    oddFields: odd.lines((path, n) => `${odds.get(path) ?? path} (${n} record${n === 1 ? '' : 's'}, kept as sent)`),
    unknownFields: unknown.lines((path, n) => `${path} (${n} record${n === 1 ? '' : 's'})`),
    problems,
  }
}
