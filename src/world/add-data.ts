import * as z from 'zod'
import { createActivation } from '../../factories/activation.js'
import { createEntries } from '../../factories/entries.js'
import { createEntry } from '../../factories/entry-fields.js'
import { createParticipant } from '../../factories/participant.js'
import type { Person } from '../../factories/person.js'
import { chance, int } from '../../factories/random-helpers.js'
import type { DateObject } from '../contract/date-object.js'
import { activationTypeSchema, stateSchema, subtypeSchema, UNLISTED_TYPES } from '../contract/enums.js'
import { problemLines } from '../contract/problems.js'
import { stateOf } from '../contract/state.js'
import type { StoredActivation, StoredEntry } from '../contract/stored-records.js'
import { TYPE_RULES } from '../contract/type-rules.js'
import { createIds, type WorldIds } from './ids.js'
import { deriveSeed, WorldFakers } from '../time/random.js'
import { inTurns, turns } from '../time/turns.js'
import { activationGroupSchema, type Scenario } from './scenario.js'
import type { WritableStore } from '../store/store.js'
import { personOf } from './world-parts.js'
import { EmulatorError } from '../contract/emulator-error.js'

/** The most entries one call adds. */
const MAX_ADDED_ENTRIES = 10_000

/** An activation's added slot (its ids and draws derive from it) and how many entries were added in it. */
type Place = { slot: number; added: number }

/** What `addActivation` takes. */
export type NewActivation = {
  /** The account it belongs to; by default the scenario's first. */
  account?: string
  type: z.infer<typeof activationTypeSchema>
  subtype?: z.infer<typeof subtypeSchema>
  state: z.infer<typeof stateSchema>
  /** Entries to generate with it (none for an activation that has not started). Default 0. */
  entries?: number
}

/** The ids of the records an `addEntries` or `addActivation` made. */
export type Added = {
  /** The activation made (`addActivation` only). */
  id?: string
  /** The entries made, in serving order. */
  entries: string[]
  /** The people who became participants with these entries. */
  participants: string[]
}

const countSchema = z.number().int().min(1).max(MAX_ADDED_ENTRIES)
const newActivationSchema = z.strictObject({
  account: z.string().min(1).optional(),
  type: activationTypeSchema,
  subtype: subtypeSchema.optional(),
  state: stateSchema,
  entries: z.number().int().min(0).max(MAX_ADDED_ENTRIES).optional(),
})

/**
 * Makes records at run time with the world's factories, so that they follow every rule a generated
 * world follows. Each activation that gets records takes an added slot (in the order of the calls),
 * and every draw derives from the seed and that slot: the same calls on the same seed and clock make
 * the same records.
 */
export class DataAdder {
  readonly #scenario: Scenario
  readonly #now: () => number
  readonly #db: () => WritableStore
  readonly #ids: WorldIds
  readonly #fakers: WorldFakers
  /** Each activation's added slot and how many entries were added in it. */
  #slots = new Map<string, Place>()
  /** The last add: the next starts once it has finished, so adds take their slots and ids in the order of the calls. */
  #last: Promise<unknown> = Promise.resolve()
  /** Hears of each entry stored, once it is (a live world counts its person among the activation's entrants). */
  readonly #stored: (entry: StoredEntry) => void

  /** `now` reads the clock (with the world brought up to it); `stored` hears of each entry stored. */
  constructor(
    scenario: Scenario,
    now: () => number,
    db: () => WritableStore,
    builtAt: number,
    stored: (entry: StoredEntry) => void = () => {},
  ) {
    this.#scenario = scenario
    this.#stored = stored
    this.#now = now
    this.#db = db
    this.#ids = createIds(scenario.seed)
    this.#fakers = new WorldFakers(builtAt)
  }

  /** Forgets what was added (the world is rebuilt): slots count from the first again. */
  reset(): void {
    this.#slots = new Map()
  }

  /**
   * Adds `count` entries to a running activation, entered at the clock's instant, each by a person of
   * its account's pool (a giveaway's may be replays; other types enter a person at most once). They
   * win nothing and have no rank: the contest has not ended.
   */
  addEntries(activationId: unknown, count: unknown): Promise<Added> {
    return this.inTurn(() => this.#addEntries(activationId, count))
  }

  /** The running activation and the count an add of entries names, or the error that refuses it. */
  #entriesTarget(activationId: unknown, count: unknown): { activation: StoredActivation; count: number } {
    if (typeof activationId !== 'string' || activationId === '') {
      throw new EmulatorError(
        'bad_input',
        `activationId must be an activation's id, got ${JSON.stringify(activationId)}`,
      )
    }
    const parsed = countSchema.safeParse(count)
    if (!parsed.success) {
      throw new EmulatorError(
        'bad_input',
        `count must be an integer from 1 to ${MAX_ADDED_ENTRIES}, got ${JSON.stringify(count)}`,
      )
    }
    const activation = this.#db().index.activations.get(activationId)
    if (!activation)
      throw new EmulatorError(
        'unknown_activation',
        `Activation not found: no activation has the id ${JSON.stringify(activationId)}`,
      )
    const now = this.#now()
    const state = stateOf(activation, now)
    if (state !== 'running') {
      throw new EmulatorError(
        'bad_input',
        `Activation ${activationId} is ${state} at ${new Date(now).toISOString()}: entries are added only to a running activation`,
      )
    }
    return { activation, count: parsed.data }
  }

  async #addEntries(activationId: unknown, count: unknown): Promise<Added> {
    const target = this.#entriesTarget(activationId, count)
    const place = this.#slotOf(target.activation.id)
    // Every entry is drawn before any is stored, so that a refused add stores nothing.
    const { made, people } = await inTurns(this.#drawEntries(target.activation, target.count, place))
    const participants = await this.#store(target.activation.account, made, people)
    place.added += made.length
    return { entries: made.map((e) => e.id), participants }
  }

  /** Draws the entries of an add (a generator that yields after each, for `inTurns`): made, not stored. */
  *#drawEntries(
    activation: StoredActivation,
    count: number,
    place: Place,
  ): Generator<void, { made: StoredEntry[]; people: Person[] }> {
    const db = this.#db()
    const id = activation.id
    const now = this.#now()
    const a = this.#accountIndex(activation.account)
    const pool = this.#scenario.accounts[a]!.people
    const rules = TYPE_RULES[activation.type]
    // Who has entered it, asked person by person: the index answers without reading the person's
    // entries (a planned world's from their place in the activation's pool), then those this add makes.
    const added = new Set<string>()
    const entered = {
      has: (personId: string) => added.has(personId) || db.index.hasEntered(personId, id),
      add: (personId: string) => void added.add(personId),
    }
    const faker = this.#fakers.records
    const made: StoredEntry[] = []
    const people: Person[] = []
    for (let k = 0; k < count; k++) {
      const n = place.added + k
      faker.seed(deriveSeed(this.#scenario.seed, 'added', place.slot, n))
      let index = int(faker, 0, pool - 1)
      let person = this.#person(a, index)
      // Only a giveaway's entrant enters again (a replay); for the others, the next person who has not entered.
      if (entered.has(person.id) && !rules.replays) {
        let tries = 0
        while (entered.has(person.id) && ++tries < pool) person = this.#person(a, (index = (index + 1) % pool))
        if (entered.has(person.id)) {
          throw new EmulatorError(
            'bad_input',
            `Activation ${id} cannot take ${count} more entries: every one of the ${pool} people of account ${activation.account} has entered it`,
          )
        }
      }
      const isReplay = entered.has(person.id)
      entered.add(person.id)
      faker.seed(deriveSeed(this.#scenario.seed, 'added', place.slot, n, 'entry'))
      const completed =
        rules.completion !== null && rules.completion !== undefined && chance(faker, rules.defaults.completed)
      made.push(
        createEntry(faker, activation, person, {
          id: this.#ids.addedEntry(place.slot, n),
          enteredAt: now,
          isReplay,
          isWinner: false,
          completed,
          voided: null,
          isConfirmed: false,
          isFulfilled: false,
          rank: null,
        }),
      )
      people.push(person)
      yield
    }
    return { made, people }
  }

  /** Adds an activation of the account (by default the first), starting, running or ended around the clock's instant, with `entries` generated entries. */
  addActivation(input: NewActivation): Promise<Added> {
    return this.inTurn(() => this.#addActivation(input))
  }

  /**
   * Runs `work` (an add, or a reset of the world) after every one called before it has finished: an
   * add takes its slot and ids before it stores its records (which awaits), so two adds at once would
   * otherwise take the same ones.
   */
  inTurn<T>(work: () => T | Promise<T>): Promise<T> {
    const result = this.#last.then(work)
    this.#last = result.catch(() => {})
    return result
  }

  async #addActivation(input: NewActivation): Promise<Added> {
    const result = newActivationSchema.safeParse(input)
    const problems = result.success ? [] : problemLines(result.error.issues)
    // The scenario's own rules for a group of one: a subtype the type has, no entries before the start.
    if (result.success) {
      const { account: _, ...group } = result.data
      const checked = activationGroupSchema.safeParse(group)
      if (!checked.success) problems.push(...problemLines(checked.error.issues))
      if (!this.#scenario.undocumentedTypes && (UNLISTED_TYPES as readonly string[]).includes(group.type)) {
        problems.push(`type: ${group.type} is not a documented type; this scenario serves only documented ones`)
      }
    }
    if (!result.success || problems.length)
      throw new EmulatorError('bad_input', `Invalid activation: ${problems.join('; ')}`)
    const { type, subtype, state, entries = 0 } = result.data
    const accountName = result.data.account ?? this.#scenario.accounts[0]!.name
    const a = this.#accountIndex(accountName)
    const db = this.#db()
    const now = this.#now()
    const place = this.#newPlace()
    const slot = place.slot
    const made = this.#ids.addedActivation(slot)
    const faker = this.#fakers.records
    faker.seed(deriveSeed(this.#scenario.seed, 'added', slot, 'activation'))
    const activation = createActivation(faker, {
      account: accountName,
      type,
      subtype,
      state,
      now,
      id: made.id,
      slugSuffix: made.slugSuffix,
    })
    faker.seed(deriveSeed(this.#scenario.seed, 'added', slot, 'entries'))
    const people = new Map<number, Person>()
    const generated: StoredEntry[] = []
    const byPerson: Person[] = []
    const pool = this.#scenario.accounts[a]!.people
    let person: Person | undefined
    const personAt = (index: number): Person => {
      person = people.get(index)
      if (!person) people.set(index, (person = this.#person(a, index)))
      return person
    }
    // Drawn in turns, all before any is stored (adds run one after another: nothing else draws from `faker` meanwhile).
    const turn = turns()
    const req = { entries, now, entryId: (n: number) => this.#ids.addedEntry(slot, n) }
    for (const entry of createEntries(faker, activation, personAt, pool, req)) {
      generated.push(entry)
      byPerson.push(person!)
      const wait = turn()
      if (wait) await wait
    }
    await db.create('activation', activation)
    place.added = generated.length
    this.#slots.set(activation.id, place)
    const participants = await this.#store(accountName, generated, byPerson)
    return { id: activation.id, entries: generated.map((e) => e.id), participants }
  }

  /**
   * Stores entries (with a participant for each person new to the account), in order, giving the event
   * loop its turns between records: a request answered meanwhile sees the entries stored so far, each
   * with its participant, as entries arriving one by one. The new participants' ids.
   */
  async #store(account: string, entries: readonly StoredEntry[], people: readonly Person[]): Promise<string[]> {
    const db = this.#db()
    const turn = turns()
    const times = new Map<string, { person: Person; times: DateObject[] }>()
    const known = new Set<string>()
    // Whether each person is a participant already: asked of each activation of the account, in turns too.
    for (let i = 0; i < entries.length; i++) {
      const { id } = people[i]!
      const first = times.get(id)
      if (first) first.times.push(entries[i]!.enteredAt)
      else if (!known.has(id)) {
        if (db.index.participants.has(id)) known.add(id)
        else times.set(id, { person: people[i]!, times: [entries[i]!.enteredAt] })
      }
      await turn()
    }
    const faker = this.#fakers.records
    for (const [id, first] of times) {
      faker.seed(deriveSeed(this.#scenario.seed, 'added', 'participant', id))
      await db.create('participant', createParticipant(faker, first.person, account, first.times))
      await turn()
    }
    for (const entry of entries) {
      // What storing it reads of its participant (a planned world's skeletons), made in turns first.
      const steps = db.index.entryLinkedInSteps(entry)
      while (steps?.next().done === false) await turn()
      await db.create('entry', entry)
      this.#stored(entry)
      await turn()
    }
    return [...times.keys()]
  }

  #slotOf(activationId: string): Place {
    let place = this.#slots.get(activationId)
    if (!place) this.#slots.set(activationId, (place = this.#newPlace()))
    return place
  }

  /** The next added slot, in the order activations get records since the last reset. */
  #newPlace(): Place {
    return { slot: this.#ids.addedSlot(this.#slots.size), added: 0 }
  }

  #person(a: number, index: number): Person {
    return personOf(this.#scenario, a, index, this.#fakers.people, this.#ids)
  }

  #accountIndex(name: string): number {
    const a = this.#scenario.accounts.findIndex((account) => account.name === name)
    if (a < 0) {
      throw new EmulatorError(
        'unknown_account',
        `Unknown account ${JSON.stringify(name)}: the accounts are ${this.#scenario.accounts.map((x) => x.name).join(', ')}`,
      )
    }
    return a
  }
}
