import * as z from 'zod'
import { ACTIVATION_KEYS, activationShape } from '../contract/activation.js'
import { activationAt, entryAt, participantExtrasAt } from '../contract/at-instant.js'
import { dateObjectSchema, toDateObject, type DateObject } from '../contract/date-object.js'
import { EmulatorError } from '../contract/emulator-error.js'
import { commonEntryShape, ENTRY_KEYS, entryFieldsByType } from '../contract/entry.js'
import { activationTypeSchema, hasSubtype, SUBTYPES_BY_TYPE, UNLISTED_TYPES } from '../contract/enums.js'
import type { ActivationEntered, Choice, Prize } from '../contract/nested.js'
import { participantSchema } from '../contract/participant.js'
import { problemLines } from '../contract/problems.js'
import type {
  ActivationConfig,
  Recorded,
  StoredActivation,
  StoredEntry,
  StoredParticipant,
} from '../contract/stored-records.js'
import { TYPE_RULES } from '../contract/type-rules.js'
import { DUMP_FORMAT, type WorldDump } from './dump.js'
import { pagesFor, pagesOf, type RecordedAccount, type RecordedPage, type Recording } from './recording.js'
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

type Raw = Record<string, unknown>

const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The items of a list's pages, in order. */
function itemsOf(pages: readonly RecordedPage[] | undefined, key: string): Raw[] {
  const items: Raw[] = []
  for (const page of pages ?? []) {
    const list = isObject(page.body) ? page.body[key] : undefined
    if (Array.isArray(list)) for (const item of list) if (isObject(item)) items.push(item)
  }
  return items
}

/** A DateObject from another form of an instant: an ISO string, seconds or milliseconds, or `{ iso }`. */
function dateFrom(value: unknown): DateObject | undefined {
  let ms = NaN
  if (typeof value === 'string') ms = Date.parse(value)
  else if (typeof value === 'number') ms = Math.abs(value) < 1e11 ? value * 1000 : value
  else if (isObject(value) && typeof value.iso === 'string') ms = Date.parse(value.iso)
  return Number.isFinite(ms) ? toDateObject(Math.round(ms)) : undefined
}

/** The value nearest to `value` that `schema` accepts, or undefined when there is none to make. */
function coerce(schema: z.ZodType, value: unknown): unknown {
  if (schema === dateObjectSchema) return dateFrom(value)
  if (schema instanceof z.ZodOptional)
    return value === undefined ? undefined : coerce(schema.unwrap() as z.ZodType, value)
  if (schema instanceof z.ZodNullable) {
    if (value === null || value === undefined) return null
    const inner = coerce(schema.unwrap() as z.ZodType, value)
    return inner === undefined ? null : inner
  }
  let made: unknown
  if (schema instanceof z.ZodObject && isObject(value)) {
    const out: Raw = {}
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const fixed = field.safeParse(value[key]).success ? value[key] : coerce(field, value[key])
      if (fixed !== undefined) out[key] = fixed
    }
    made = out
  } else if (schema instanceof z.ZodArray) {
    made = Array.isArray(value)
      ? value.map((item) => coerce(schema.element as z.ZodType, item)).filter((item) => item !== undefined)
      : []
  } else if (schema instanceof z.ZodNumber) {
    made = typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof value === 'boolean' ? +value : 0
  } else if (schema instanceof z.ZodBoolean) {
    made = value === 'true' || value === 1 || value === '1'
  } else if (schema instanceof z.ZodString) {
    made = value === null || value === undefined || typeof value === 'object' ? '' : String(value)
  } else if (schema instanceof z.ZodEnum) {
    made = (schema.options as unknown[]).includes(value) ? value : schema.options[0]
  } else if (schema instanceof z.ZodUnion) {
    for (const option of schema.options as z.ZodType[]) {
      const fixed = coerce(option, value)
      if (fixed !== undefined && option.safeParse(fixed).success) return fixed
    }
    return undefined
  }
  return made !== undefined && schema.safeParse(made).success ? made : undefined
}

/** Counts each path once, for one line per path in the report. */
class PathCounts {
  readonly counts = new Map<string, number>()
  add(path: string): void {
    this.counts.set(path, (this.counts.get(path) ?? 0) + 1)
  }
  lines(what: (path: string, n: number) => string): string[] {
    return [...this.counts].map(([path, n]) => what(path, n))
  }
}

/**
 * The fields of `raw` that `shape` knows, each as sent when the schema accepts it and otherwise made to
 * fit (and pinned: served as sent). Keys `shape` does not know are pinned too.
 */
function rebuild(
  shape: Record<string, z.ZodType>,
  raw: Raw,
  where: string,
  odd: PathCounts,
  odds: Map<string, string>,
  unknown: PathCounts,
  problems: string[],
  derived: readonly string[] = [],
): { value: Raw; pinned: string[] } | undefined {
  const value: Raw = {}
  const pinned: string[] = []
  for (const key of Object.keys(raw)) {
    if (!Object.hasOwn(shape, key) && !derived.includes(key)) {
      pinned.push(key)
      unknown.add(`${where}.${key}`)
    }
  }
  for (const [key, schema] of Object.entries(shape)) {
    const sent = raw[key]
    const checked = schema.safeParse(sent)
    if (checked.success) {
      // The value as sent (the schema accepted it as it is): the same object, so that comparing what
      // is served with what was sent is mostly a matter of identity.
      if (sent !== undefined) value[key] = sent
      continue
    }
    pinned.push(key)
    const path = `${where}.${key}`
    odd.add(path)
    if (!odds.has(path)) odds.set(path, problemLines(checked.error.issues, path)[0] ?? path)
    const fixed = coerce(schema, sent)
    if (fixed === undefined && !schema.safeParse(undefined).success) {
      problems.push(
        `${path}: ${JSON.stringify(sent)} cannot be read as the emulator's ${key}, so the record is left out`,
      )
      return undefined
    }
    if (fixed !== undefined) value[key] = fixed
  }
  return { value, pinned }
}

/** What to keep of a record as sent: nothing when the emulator's own fields give it back exactly. */
function recordedOf(raw: Raw, made: Raw, pinned: string[]): Recorded | undefined {
  const pin = new Set(pinned)
  const sent = Object.keys(raw)
  const own = Object.keys(made)
  let sameOrder = sent.length === own.length
  for (let i = 0; i < sent.length; i++) {
    const key = sent[i]!
    if (key !== own[i]) sameOrder = false
    if (pin.has(key) || raw[key] === made[key]) continue
    if (JSON.stringify(raw[key]) !== JSON.stringify(made[key])) pin.add(key)
  }
  for (const key of own) if (!Object.hasOwn(raw, key)) pin.add(key)
  return pin.size === 0 && sameOrder ? undefined : { as: raw, pinned: [...pin] }
}

function pick(record: object, keys: readonly string[]): Raw {
  const out: Raw = {}
  for (const key of keys) {
    const value = (record as Raw)[key]
    if (value !== undefined) out[key] = value
  }
  return out
}

const distinctBy = <T>(items: T[], key: (item: T) => string): T[] => {
  const seen = new Map<string, T>()
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item)
  return [...seen.values()]
}

/** An activation's set-up, as far as its entries show it. */
function inferConfig(
  activation: StoredActivation,
  entries: readonly Raw[],
  questionCount: number | null,
): ActivationConfig {
  const field = <T>(key: string) => entries.map((e) => e[key] as T).filter((v) => v !== undefined && v !== null)
  const strings = (values: unknown[]) => [...new Set(values.filter((v): v is string => typeof v === 'string'))]
  const extras = entries.flatMap((e) => (Array.isArray(e.extras) ? (e.extras as Raw[]) : []))
  const extraQuestions = distinctBy(extras, (x) => String(x.key)).map((x) => ({
    key: String(x.key),
    label: String(x.label),
    type: x.type as 'text' | 'select' | 'checkbox',
    options:
      x.type === 'select' ? strings(extras.filter((y) => y.key === x.key).map((y) => y.value)) : ([] as string[]),
  }))
  const votes = field<{ round: number; seed: number; contestant: string }>('vote')
  const rounds = [...new Set(votes.map((v) => v.round))].sort((a, b) => a - b)
  return {
    questionCount,
    extraQuestions,
    prizes: distinctBy(field<Prize>('prize'), (p) => p.id),
    collectsAddress: field('address').length > 0,
    requestsSeat: field('seat').length > 0,
    voteChoices: distinctBy(
      entries.flatMap((e) => (Array.isArray(e.choices) ? (e.choices as Choice[]) : [])),
      (c) => c.id,
    ),
    options: strings([
      ...field('category'),
      ...field('choice'),
      ...field('result'),
      ...entries.flatMap((e) => (Array.isArray(e.lineup) ? e.lineup : [])),
      ...entries.flatMap((e) => (Array.isArray(e.answers) ? (e.answers as Raw[]).map((a) => a.question) : [])),
    ]),
    bracket:
      activation.type === 'bracket'
        ? {
            contestants: distinctBy(votes, (v) => String(v.seed))
              .map((v) => ({ seed: v.seed, name: v.contestant }))
              .sort((a, b) => a.seed - b.seed),
            rounds: rounds.map((round) => ({
              round,
              seeds: [...new Set(votes.filter((v) => v.round === round).map((v) => v.seed))].sort((a, b) => a - b),
            })),
          }
        : null,
  }
}

const STATES = ['not_started', 'running', 'ended'] as const

/**
 * The instant a recording is served at: its `serverDate` when the recorded states allow it, else the
 * earliest instant every record and state allows (nothing recorded happened after it). Between the
 * two, no recorded page can tell.
 */
export function recordedInstant(recording: Recording): string {
  let low = ''
  let high = '\uffff'
  const later = (iso: unknown) => {
    if (typeof iso === 'string' && iso > low) low = iso
  }
  for (const account of recording.accounts) {
    const activations = itemsOf(account.activations, 'activations')
    const state = new Map<string, string>()
    for (const s of STATES)
      for (const a of itemsOf(pagesFor(account.states, s), 'activations')) state.set(String(a.id), s)
    for (const a of activations) {
      const start = dateFrom(a.startTime)?.iso
      const end = dateFrom(a.endTime)?.iso
      later(dateFrom(a.createdAt)?.iso)
      const updated = dateFrom(a.updatedAt)?.iso
      if (updated !== dateFrom(a.createdAt)?.iso) later(updated)
      const s = state.get(String(a.id))
      if (s === 'running' || s === 'ended') later(start)
      if (s === 'ended') later(end)
      if (s === 'not_started' && start && start <= high) high = start
      if (s === 'running' && end && end <= high) high = end
    }
    for (const pages of Object.values(account.entries)) {
      for (const e of itemsOf(pages, 'entries')) {
        later(dateFrom(e.enteredAt)?.iso)
        later(dateFrom(e.voidedAt)?.iso)
      }
    }
    for (const p of itemsOf(account.participants, 'participants')) {
      for (const x of Array.isArray(p.extras) ? (p.extras as Raw[]) : []) later(dateFrom(x.answeredAt)?.iso)
    }
  }
  if (!low) low = recording.startedAt
  const server = recording.serverDate
  return server && server >= low && server < high ? server : low
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
    const firsts = new Map<string, Map<string, StoredEntry>>()
    const activationOf = new Map(activations.map((x) => [x.id, x]))
    for (const entry of entries) {
      if (entry.enteredAt.iso > builtAt) continue
      const mine = firsts.get(entry.participantId) ?? new Map<string, StoredEntry>()
      firsts.set(entry.participantId, mine)
      const first = mine.get(entry.activationId)
      if (!first || entry.enteredAt.iso < first.enteredAt.iso) mine.set(entry.activationId, entry)
    }
    for (const [p, raw] of participantRaws) {
      const mine = [...(firsts.get(p.id) ?? new Map<string, StoredEntry>())]
      if (mine.length === 0) {
        problems.push(
          `participant ${JSON.stringify(p.id)} has no recorded entry, so the participants list leaves them out`,
        )
        continue
      }
      const entered: ActivationEntered[] = mine
        .map(([id, e]) => {
          const x = activationOf.get(id) as StoredActivation
          return { id, type: x.type, title: x.title, firstEnteredAt: e.enteredAt }
        })
        .sort((x, y) =>
          x.firstEnteredAt.iso < y.firstEnteredAt.iso
            ? -1
            : x.firstEnteredAt.iso > y.firstEnteredAt.iso
              ? 1
              : x.id < y.id
                ? -1
                : x.id > y.id
                  ? 1
                  : 0,
        )
      const made: Raw = {
        id: p.id,
        email: p.email,
        firstName: p.firstName,
        lastName: p.lastName,
        extras: participantExtrasAt(p, builtAt),
        activationsEntered: entered,
        firstEnteredAt: entered.reduce(
          (x, y) => (y.firstEnteredAt.iso < x.iso ? y.firstEnteredAt : x),
          entered[0]!.firstEnteredAt,
        ),
      }
      const recorded = recordedOf(raw, made, pinnedLater.get(p) ?? [])
      if (recorded) p.recorded = recorded
    }
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

/** Makes an activation fit the rules across its fields (a subtype for the types that have one; a sponsor's name and URL together), pinning what it changes. */
function fitActivationRules(a: StoredActivation, pinned: string[]): void {
  if (hasSubtype(a.type)) {
    const allowed: readonly string[] = SUBTYPES_BY_TYPE[a.type]
    if (a.subtype === undefined || !allowed.includes(a.subtype)) {
      a.subtype = allowed[0] as StoredActivation['subtype']
      pinned.push('subtype')
    }
  } else if (a.subtype !== undefined) {
    delete a.subtype
    pinned.push('subtype')
  }
  if ((a.sponsorName === null) !== (a.sponsorUrl === null)) {
    a.sponsorName = a.sponsorName ?? ''
    a.sponsorUrl = a.sponsorUrl ?? ''
    pinned.push('sponsorName', 'sponsorUrl')
  }
}
