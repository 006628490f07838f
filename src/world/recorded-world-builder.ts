import type * as z from 'zod'
import { ACTIVATION_KEYS, activationShape } from '../contract/activation.js'
import { activationAt, entryAt } from '../contract/at-instant.js'
import { commonEntryShape, ENTRY_KEYS, entryFieldsByType } from '../contract/entry.js'
import { activationTypeSchema, UNLISTED_TYPES } from '../contract/enums.js'
import { participantSchema } from '../contract/participant.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import { TYPE_RULES } from '../contract/type-rules.js'
import { DUMP_FORMAT, type WorldDump } from './dump.js'
import { fitActivationRules, inferConfig } from './recorded-activation.js'
import { isObject, itemsOf, PathCounts, pick, rebuild, recordedOf, type Raw } from './recorded-fields.js'
import { pinDerivedParticipantFields } from './recorded-participants.js'
import { recordedQuestionCount } from './recorded-question-count.js'
import { pagesFor, pagesOf, type RecordedAccount, type Recording } from './recording.js'
import { parseScenario } from './scenario.js'

/** The keys of a page that are not a record's: the lists' own. */
const PAGE_KEYS = new Set(['activations', 'activation', 'entries', 'participants', 'next'])

/** The participants list's fields less those it derives from entries (compared once every entry is in). */
const DERIVED_PARTICIPANT_KEYS = ['activationsEntered', 'firstEnteredAt'] as const
const PARTICIPANT_SHAPE = Object.fromEntries(
  Object.entries(participantSchema.shape).filter(
    ([key]) => !(DERIVED_PARTICIPANT_KEYS as readonly string[]).includes(key),
  ),
) as Record<string, z.ZodType>

/** What a recording makes (`worldFromRecording`): the world as a dump, and what it noticed, one line each. */
export type RecordedWorld = {
  dump: WorldDump
  /** Fields sent in another form than the schema allows (each path once, with a count), kept as sent. */
  oddFields: string[]
  /** Fields the emulator does not know, kept and served back as sent: each path once, with a count. */
  unknownFields: string[]
  /** What could not be kept (an activation of a type the emulator does not know...). */
  problems: string[]
}

/** An account's participants as read: by e-mail (entries join them by it), and each one's record as sent. */
type AccountPeople = { byEmail: Map<string, StoredParticipant>; raws: Map<StoredParticipant, Raw> }

/**
 * A world made from a recording, account by account (`addAccount`, in the recording's order), then
 * `build`: the store's records rebuilt from what was sent, with what it noticed on the way.
 */
export class RecordedWorldBuilder {
  readonly #builtAt: string
  readonly #keepApiKeys: boolean
  /** Fields sent in another form than the schema allows, each path's first problem line in `#odds`. */
  readonly #odd = new PathCounts()
  readonly #odds = new Map<string, string>()
  readonly #unknown = new PathCounts()
  /** A page's own fields other than its list and `next`. */
  readonly #pageKeys = new PathCounts()
  readonly #problems: string[] = []
  readonly #accounts: unknown[] = []
  readonly #activations: StoredActivation[] = []
  readonly #entries: StoredEntry[] = []
  readonly #participants: StoredParticipant[] = []
  readonly #activationIds = new Set<string>()
  readonly #entryIds = new Set<string>()
  readonly #participantIds = new Set<string>()
  /** An activation of a type the spec does not list was kept. */
  #undocumented = false
  /** The keys of each participant pinned when read; their derived fields are compared once every entry is in. */
  readonly #pinnedLater = new Map<StoredParticipant, string[]>()

  constructor(builtAt: string, keepApiKeys: boolean) {
    this.#builtAt = builtAt
    this.#keepApiKeys = keepApiKeys
  }

  /** Adds the `a`th account of the recording: its participants first (entries join them by e-mail), then its activations. */
  addAccount(account: RecordedAccount, a: number): void {
    const name = `recorded-${a + 1}`
    for (const page of pagesOf(account)) {
      if (isObject(page.body)) {
        for (const key of Object.keys(page.body)) if (!PAGE_KEYS.has(key)) this.#pageKeys.add(key)
      }
    }
    this.#accounts.push({
      name,
      apiKeys: [this.#keepApiKeys ? account.apiKey : `recorded-key-${a + 1}`],
      premium: account.premium,
    })
    const people = this.#addParticipants(account, name)
    for (const raw of itemsOf(account.activations, 'activations')) this.#addActivation(account, name, raw, people)
    // What the participants list derives from entries, compared with what was sent.
    pinDerivedParticipantFields(
      people.raws,
      this.#pinnedLater,
      this.#activations,
      this.#entries,
      this.#builtAt,
      this.#problems,
    )
  }

  /** The world of the accounts added, recorded from `recording`. */
  build(recording: Recording): RecordedWorld {
    for (const line of this.#pageKeys.lines((key, n) => `${key} (${n} page${n === 1 ? '' : 's'})`)) {
      this.#problems.push(`a page's own field ${line}: a world keeps records, not pages, so it is not served back`)
    }
    const scenario = parseScenario(
      {
        name: 'recorded',
        description: `Recorded from ${recording.from} (${recording.startedAt} to ${recording.finishedAt})`,
        seed: 1,
        accounts: this.#accounts,
        undocumentedTypes: this.#undocumented,
      },
      'recorded scenario',
    )
    const odds = this.#odds
    return {
      dump: {
        format: DUMP_FORMAT,
        builtAt: this.#builtAt,
        scenario,
        activations: this.#activations,
        entries: this.#entries,
        participants: this.#participants,
      },
      oddFields: this.#odd.lines(
        (path, n) => `${odds.get(path) ?? path} (${n} record${n === 1 ? '' : 's'}, kept as sent)`,
      ),
      unknownFields: this.#unknown.lines((path, n) => `${path} (${n} record${n === 1 ? '' : 's'})`),
      problems: this.#problems,
    }
  }

  /** `raw` rebuilt to `shape` (rebuild), noting its odd and unknown fields and its problems here. */
  #rebuild(shape: Record<string, z.ZodType>, raw: Raw, where: string, derived?: readonly string[]) {
    return rebuild(shape, raw, where, this.#odd, this.#odds, this.#unknown, this.#problems, derived)
  }

  #addParticipants(account: RecordedAccount, name: string): AccountPeople {
    const people: AccountPeople = { byEmail: new Map(), raws: new Map() }
    for (const raw of itemsOf(account.participants, 'participants')) {
      const built = this.#rebuild(PARTICIPANT_SHAPE, raw, 'participants[]', DERIVED_PARTICIPANT_KEYS)
      if (!built) continue
      const p = { ...built.value, account: name } as StoredParticipant
      if (this.#participantIds.has(p.id)) {
        this.#problems.push(`participant ${JSON.stringify(p.id)} is listed twice: its second listing is left out`)
        continue
      }
      this.#participantIds.add(p.id)
      this.#participants.push(p)
      people.raws.set(p, raw)
      this.#pinnedLater.set(p, built.pinned)
      if (!people.byEmail.has(p.email)) people.byEmail.set(p.email, p)
    }
    return people
  }

  /** Adds an activation as listed (`raw`) and its entries, each joined to its participant. */
  #addActivation(account: RecordedAccount, name: string, raw: Raw, people: AccountPeople): void {
    const type = activationTypeSchema.safeParse(raw.type)
    if (!type.success) {
      this.#problems.push(
        `activation ${JSON.stringify(raw.id)} has the type ${JSON.stringify(raw.type)}, which the emulator does not know: it is left out`,
      )
      return
    }
    const built = this.#rebuild(activationShape as Record<string, z.ZodType>, raw, 'activations[]')
    if (!built) return
    const value = built.value as StoredActivation
    if (this.#activationIds.has(value.id)) {
      this.#problems.push(`activation ${JSON.stringify(value.id)} is listed twice: its second listing is left out`)
      return
    }
    this.#activationIds.add(value.id)
    if ((UNLISTED_TYPES as readonly string[]).includes(value.type)) this.#undocumented = true
    fitActivationRules(value, built.pinned)
    const entryRaws = itemsOf(pagesFor(account.entries, value.id) ?? [], 'entries')
    const rules = TYPE_RULES[value.type]
    const completedIds =
      pagesFor(account.completed, value.id) &&
      new Set(itemsOf(pagesFor(account.completed, value.id), 'entries').map((e) => e.id))
    const questionCount = recordedQuestionCount(rules, account, value.id, entryRaws)
    const activation: StoredActivation = { ...value, account: name, config: inferConfig(value, [], null) }
    const entryShape = { ...commonEntryShape, ...entryFieldsByType[value.type] } as Record<string, z.ZodType>
    const mine: Array<{ entry: StoredEntry; raw: Raw; pinned: string[] }> = []
    for (const entryRaw of entryRaws) {
      const built = this.#rebuild(entryShape, entryRaw, `entries[${value.type}]`)
      if (!built) continue
      const e = built.value as StoredEntry & Raw
      if (this.#entryIds.has(e.id)) {
        this.#problems.push(`entry ${JSON.stringify(e.id)} is listed twice: its second listing is left out`)
        continue
      }
      this.#entryIds.add(e.id)
      const person = this.#personOf(e, name, people)
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
    const recorded = recordedOf(raw, pick(activationAt(activation, this.#builtAt), ACTIVATION_KEYS), built.pinned)
    if (recorded) activation.recorded = recorded
    this.#activations.push(activation)
    for (const { entry, raw: entryRaw, pinned } of mine) {
      const made = pick(entryAt(entry, activation, this.#builtAt), ENTRY_KEYS[activation.type])
      const recorded = recordedOf(entryRaw, made, pinned)
      if (recorded) entry.recorded = recorded
      this.#entries.push(entry)
    }
  }

  /**
   * The participant an entry is of, by its e-mail: with no participants list (no premium feature), or
   * a person it does not list, one made from the entry.
   */
  #personOf(e: StoredEntry, name: string, people: AccountPeople): StoredParticipant {
    let person = people.byEmail.get(e.email)
    if (person) return person
    let id = `${name}-person-${people.byEmail.size + 1}`
    while (this.#participantIds.has(id)) id += '-'
    this.#participantIds.add(id)
    person = { id, email: e.email, firstName: e.firstName, lastName: e.lastName, extras: [], account: name }
    people.byEmail.set(e.email, person)
    this.#participants.push(person)
    return person
  }
}
