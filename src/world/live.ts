import { arrivalOutcome } from '../../factories/arrivals.js'
import { createEntry } from '../../factories/entry-fields.js'
import type { Person } from '../../factories/person.js'
import { int } from '../../factories/random-helpers.js'
import type { StoredActivation, StoredEntry, StoredParticipant, World } from '../contract/stored-records.js'
import { TYPE_RULES } from '../contract/type-rules.js'
import { createIds, type WorldIds } from './ids.js'
import { eventsOfHour, HOUR, nextBusyHour, type LiveCalendar, type LiveEvent } from './live-hours.js'
import { deriveSeed, WorldFakers } from '../time/random.js'
import type { Scenario } from './scenario.js'
import type { WritableStore } from '../store/store.js'
import { groupRates } from './group-rates.js'
import { personOf } from './world-parts.js'
import { atOnce, turns } from '../time/turns.js'
import { ActivationState, stateInTurns } from './live-state.js'
import { endContest, EndsInTurns } from './live-results.js'
import { arrivedParticipant } from './live-participant.js'

// A world that lives on the clock. Time is cut into hours; what happens in an hour (which entries
// arrive in each running activation, when; which ranked activations end) is drawn from the seed, the
// activation and the hour alone, and is then applied in time order, one event after another, each
// reading the store as the events before it left it. So the world at an instant is the same however
// the clock got there: in one jump, in small steps or in real time.

/** What `settle` did: the entries that arrived, by activation. */
export type Arrivals = ReadonlyMap<string, number>

const NOTHING: Arrivals = new Map()

/** The world time `settleInTurns` settles first: a minute of busy's arrivals is well under a turn. */
const FIRST_STEP_MS = 60_000
/** A step that took less real time than this doubles, one that took more than SLOW_STEP_MS halves: each step stays a few ms, well within a turn. */
const FAST_STEP_MS = 2
const SLOW_STEP_MS = 8

/**
 * Brings the store up to the clock: stores the entries that arrived and the results of ranked
 * activations that ended since the last instant it was brought to. Results happen whether or not
 * arrivals are on; arrivals need `arrivals: true` and a rate (the scenario's `live`).
 */
export class LiveWorld {
  readonly #scenario: Scenario
  readonly #builtAt: number
  readonly #db: () => WritableStore
  readonly #ids: WorldIds
  /** Made at first use: making them loads Faker, which an emulator whose world was read from the cache may never need. */
  readonly #fakers: WorldFakers
  readonly #rates: Map<string, number>
  readonly #accounts: Map<string, number>
  /** Whether entries arrive. */
  arrivals: boolean
  /** The last instant whose events are applied. */
  #until: number
  /** The hour being applied, its events in order, and how many are applied. */
  #hour = -1
  #events: LiveEvent[] = []
  #applied = 0
  #states = new Map<string, ActivationState>()
  #planned = 0
  /** Counts resets: a settling in turns that a reset overtook stops. */
  #resets = 0
  /** Counts ends and resets: a state read in turns while one happened is read again. */
  #endings = 0
  /** The event a settle paused before, which reads an activation's entries (see `#settle`). */
  #paused: LiveEvent | undefined
  /** Ranked activations' ends applied in turns. */
  readonly #ends = new EndsInTurns()

  constructor(scenario: Scenario, builtAt: number, db: () => WritableStore, arrivals: boolean) {
    this.#scenario = scenario
    this.#builtAt = builtAt
    this.#db = db
    this.#ids = createIds(scenario.seed)
    this.#fakers = new WorldFakers(builtAt)
    this.#rates = groupRates(scenario)
    this.#accounts = new Map(scenario.accounts.map((a, i) => [a.name, i]))
    this.arrivals = arrivals
    this.#until = builtAt
  }

  /** The instant up to which the store holds what happened. */
  get until(): number {
    return this.#until
  }

  /** Forgets what it applied: the store is the world as built again. */
  reset(): void {
    this.#resets++
    this.#endings++
    this.#until = this.#builtAt
    this.#hour = -1
    this.#events = []
    this.#applied = 0
    this.#states = new Map()
    this.#ends.drop()
  }

  /** Plans the current hour again (an activation was added, changed or removed: its arrivals change). */
  replan(): void {
    this.#hour = -1
  }

  /** Entries an hour that an activation receives while it runs. */
  rateOf(activation: StoredActivation): number {
    return this.#rates.get(activation.id) ?? this.#scenario.live?.entriesPerHour ?? 0
  }

  /** Applies everything that happened up to `now` and not yet applied; what arrived, by activation. */
  settle(now: number): Arrivals {
    return this.#settle(now, false)
  }

  /** `settle`; with `pause`, it stops just before an event that reads an activation's entries, kept in `#paused`. */
  #settle(now: number, pause: boolean): Arrivals {
    // An end that a settle in turns left half-way comes first: no one reads half the ranks.
    this.#ends.finish()
    if (now <= this.#until) return NOTHING
    const arrived = new Map<string, number>()
    const batch: World = { activations: [], entries: [], participants: [] }
    const pending = new Map<string, StoredParticipant>()
    while (this.#until < now) {
      const hour = Math.floor((this.#until + 1) / HOUR)
      if (hour !== this.#hour) this.#plan(hour)
      let end = Math.min(now, (hour + 1) * HOUR - 1)
      for (; this.#applied < this.#events.length; this.#applied++) {
        const event = this.#events[this.#applied]!
        if (event.at > end) break
        if (pause && this.#pausesAt(this.#applied)) {
          this.#paused = event
          end = event.at - 1
          break
        }
        if (event.kind === 'end') {
          // Results read every entry: the batch so far goes in first.
          this.#flush(batch, pending)
          atOnce(this.#end(event))
        } else if (this.#arrive(event, batch, pending)) {
          arrived.set(event.activationId, (arrived.get(event.activationId) ?? 0) + 1)
        }
      }
      this.#until = end
      if (this.#paused !== undefined) break
      // The hour is done: hours in which nothing can happen are skipped, so that a clock moved by
      // years costs what happens in between, not a plan of every hour.
      if (end < now && this.#applied >= this.#events.length) {
        const next = nextBusyHour(end, this.#db().index.activations.values(), this.#calendar())
        this.#until = Math.max(end, Math.min(now, next * HOUR - 1))
      }
    }
    this.#flush(batch, pending)
    return arrived
  }

  /**
   * Whether an event up to `now`, in the hour being applied, reads an activation's entries (25,000 in
   * busy's largest): its first arrival, or a ranked one's end. `settleInTurns` reads them in turns, `settle` at once.
   */
  readsEntriesBy(now: number): boolean {
    if (now <= this.#until) return false
    const hour = Math.floor((this.#until + 1) / HOUR)
    if (hour !== this.#hour) this.#plan(hour)
    for (let i = this.#applied; i < this.#events.length && this.#events[i]!.at <= now; i++) {
      if (this.#pausesAt(i)) return true
    }
    return false
  }

  /** How far `now` is past the last instant applied (0 when it is not). */
  behindBy(now: number): number {
    return Math.max(0, now - this.#until)
  }

  /**
   * What `settle(now)` does, in steps of world time each a few ms of real time, the event loop
   * having its turn between them; the store ends as one `settle(now)` leaves it (settling is
   * path-independent). A `settle` called meanwhile applies the rest at once; a `reset` stops it.
   */
  async settleInTurns(now: number): Promise<Arrivals> {
    if (now <= this.#until) return NOTHING
    const resets = this.#resets
    const arrived = new Map<string, number>()
    const turn = turns()
    let step = FIRST_STEP_MS
    let pause = true
    while (this.#until < now && resets === this.#resets) {
      const started = performance.now()
      const some = this.#settle(Math.min(now, this.#until + step), pause)
      const took = performance.now() - started
      for (const [id, n] of some) arrived.set(id, (arrived.get(id) ?? 0) + n)
      const paused = this.#paused
      this.#paused = undefined
      // A first arrival's entries are read in turns, an end applied in turns (at once if they changed
      // or were overtaken meanwhile: it always moves on).
      if (paused?.kind === 'end') pause = await this.#ends.apply(paused, this.#end(paused), turn)
      else pause = paused === undefined || (await this.#readInTurns(paused.activationId))
      // A step that paused did less than its length: it says nothing of a longer one.
      if (took > SLOW_STEP_MS) step = Math.max(1, Math.floor(step / 2))
      else if (took < FAST_STEP_MS && paused === undefined) step *= 2
      const wait = turn()
      if (wait) await wait
    }
    return arrived
  }

  /** How many hours were planned: what a move of the clock cost (for tests). */
  get plannedHours(): number {
    return this.#planned
  }

  /** What drawing the events reads of this world, now. */
  #calendar(): LiveCalendar {
    const rateOf = (activation: StoredActivation) => this.rateOf(activation)
    return { seed: this.#scenario.seed, builtAt: this.#builtAt, arrivals: this.arrivals, rateOf, fakers: this.#fakers }
  }

  /** Plans an hour: its events, of which those up to the last instant applied count as applied. */
  #plan(hour: number): void {
    this.#planned++
    const events = eventsOfHour(hour, this.#db().index.activations.values(), this.#calendar())
    this.#hour = hour
    this.#events = events
    // After a replan, what is applied already stays applied.
    this.#applied = 0
    while (this.#applied < events.length && events[this.#applied]!.at <= this.#until) this.#applied++
  }

  /** One arrival: an entry by a person of the account's pool, and their participant made or updated. */
  #arrive(event: LiveEvent, batch: World, pending: Map<string, StoredParticipant>): boolean {
    const db = this.#db()
    const activation = db.index.activations.get(event.activationId)
    const a = activation && this.#accounts.get(activation.account)
    if (!activation || a === undefined) return false
    const state = this.#stateOf(activation, a)
    const faker = this.#fakers.records
    faker.seed(deriveSeed(this.#scenario.seed, 'live', activation.id, event.hour, event.k))
    const outcome = arrivalOutcome(faker, activation, event.at, {
      hasEntrants: state.entrants.length > 0,
      winners: state.winners,
    })
    const pool = this.#scenario.accounts[a]!.people
    let index = int(faker, 0, pool - 1)
    let personId: string
    if (outcome.isReplay) {
      personId = state.entrants[int(faker, 0, state.entrants.length - 1)]!
    } else {
      // The next person of the pool who has not entered this activation, going round the pool's
      // end; when everyone has, a replay by the person just before the place drawn.
      const next = state.unentered.next(index)
      index = next >= 0 ? next : (index + pool - 1) % pool
      personId = this.#ids.person(a, index)
      if (next < 0) {
        if (!TYPE_RULES[activation.type].replays) return false
        outcome.isReplay = true
      }
    }
    const known = pending.get(personId) ?? db.index.participants.get(personId)
    if (outcome.isReplay && !known) return false // an entrant whose participant was deleted
    const person: Person = known ?? personOf(this.#scenario, a, index, this.#fakers.people, this.#ids)
    const entry = createEntry(faker, activation, person, {
      ...outcome,
      id: this.#ids.liveEntry(state.slot, state.arrived),
      enteredAt: event.at,
    })
    state.arrived++
    if (!state.entered.has(personId)) {
      state.entered.add(personId)
      state.entrants.push(personId)
      state.unentered.mark(index)
    }
    if (outcome.isWinner) state.winners++
    batch.entries.push(entry)

    const who = { id: personId, person, known, account: activation.account }
    arrivedParticipant(db, this.#fakers.people, this.#scenario.seed, who, entry, batch, pending)
    return true
  }

  /** A ranked activation ends: every entry it holds gets its rank, and the top ones win (in steps: see `endContest`). */
  *#end(event: LiveEvent): Generator<void, void> {
    const activation = this.#db().index.activations.get(event.activationId)
    if (!activation) return
    this.#endings++
    const winners = yield* endContest(this.#db(), this.#fakers.records, this.#scenario.seed, activation)
    const state = this.#states.get(activation.id)
    if (state && winners !== undefined) state.winners = winners
  }

  /**
   * An entry stored by another writer (an add): from now on its person is among the activation's
   * entrants, as a scan of its entries would find them (the state read at the first arrival is kept).
   */
  entered(entry: StoredEntry): void {
    this.#states.get(entry.activationId)?.enter(entry)
  }

  /** The live state of an activation, read from the store at its first arrival. */
  #stateOf(activation: StoredActivation, a: number): ActivationState {
    let state = this.#states.get(activation.id)
    if (!state) {
      state = new ActivationState(this.#scenario.accounts[a]!.people, a, this.#ids)
      // The batch holds none of its entries yet: they all arrive through here.
      atOnce(state.read(this.#db().index.entryListsOf(activation.id).all))
      this.#keep(activation.id, state)
    }
    return state
  }

  /**
   * Whether a settle in turns stops before the event at `i`: a ranked activation's end (see
   * `EndsInTurns.pausesBefore`), or the first arrival in an activation of the world, none applied before it at its instant.
   */
  #pausesAt(i: number): boolean {
    const event = this.#events[i]!
    if (event.kind === 'end') return this.#ends.pausesBefore(this.#events, i)
    if (this.#states.has(event.activationId)) return false
    const activation = this.#db().index.activations.get(event.activationId)
    const before = this.#events[i - 1]
    return !!activation && this.#accounts.has(activation.account) && (before === undefined || before.at < event.at)
  }

  /** Reads an activation's state in turns and keeps it; false if its entries changed or were read meanwhile. */
  async #readInTurns(activationId: string): Promise<boolean> {
    const activation = this.#db().index.activations.get(activationId)
    const a = activation && this.#accounts.get(activation.account)
    if (!activation || a === undefined) return true
    const seen = this.#endings
    const index = () => this.#db().index
    const state = await stateInTurns(index, activationId, this.#scenario.accounts[a]!.people, a, this.#ids)
    if (!state || seen !== this.#endings || this.#states.has(activationId)) return false
    this.#keep(activationId, state)
    return true
  }

  #keep(activationId: string, state: ActivationState): void {
    state.slot = this.#states.size
    this.#states.set(activationId, state)
  }

  #flush(batch: World, pending: Map<string, StoredParticipant>): void {
    if (batch.entries.length || batch.participants.length) this.#db().append(batch)
    batch.entries = []
    batch.participants = []
    pending.clear()
  }
}
