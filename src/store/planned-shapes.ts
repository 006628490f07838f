import type { DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import type { EntryLists } from './store-index.js'

/**
 * A world read as asked (what `planWorld` gives): its activations now, and each entry and participant
 * built when read, as a pure function of its place. The store over it (`createDatabase`) keeps its
 * changes as a layer over it (see `plannedBase`) and builds every record only when its
 * `entries` or `participants` collection is read.
 */
export type PlannedWorld = {
  activations: StoredActivation[]
  counts: { participants: number; entries: number }
  /**
   * What the API shows of the world at an instant, counted as `emulator.state()` counts (the
   * activations created by then, their entries entered by then, the participants whose first entry
   * was by then): without building a record.
   */
  countsAt: (nowIso: string) => { activations: number; entries: number; participants: number }
  /** Each account's participants (`of`), and the account of a participant, by id (`found`). */
  people: PlannedAccounts
  /** Every participant, account by account, in pool order: each built now (what reading them whole costs). */
  participants(): StoredParticipant[]
  /** Each activation's entries, one run per activation with entries, in the world's order. */
  entryRuns: readonly PlannedEntryRun[]
  /** The activation an entry id belongs to, read off the id (so that finding an entry reads one run). */
  entryActivation(id: string): string | undefined
}

/** One activation's entries in a planned world (see `PlannedRun`). */
export type PlannedEntryRun = {
  activationId: string
  /** How many entries the run holds, known without building them. */
  count: number
  /** An entry's place in the run, by id, without building it. */
  numberOf(id: string): number | undefined
  /** Every entry, in serving order. */
  entries(): StoredEntry[]
  /** How many of its entries were entered at or before an instant (ms). */
  enteredBy(at: number): number
  /** The activation's entry lists, their entries built as they are read. */
  lists(): EntryLists
  /** Makes `lists()` in turns where it reads every entry (a bracket's): a promise to wait for before reading them, else undefined. */
  listsInTurns(): Promise<void> | undefined
  /** `listsInTurns`' steps, for a reader that yields between them itself; undefined when there are none. */
  listsInSteps(): Generator<void, void> | undefined
  /** An entry by id, with its place. */
  found(id: string): { entry: StoredEntry; n: number } | undefined
}

/**
 * One account's participants in a planned world, each built when first read. Asked about anyone but
 * a participant of the account, each answers undefined.
 */
type PlannedParticipants = {
  /** The account whose pool these people are. */
  readonly account: string
  /** Those who entered, by first entry then id. */
  readonly list: readonly StoredParticipant[]
  /** A participant by id. */
  found(id: string): StoredParticipant | undefined
  /** Whether someone with this id has entered, without building them. */
  has(id: string): boolean
  /** Whether a participant has an entry in an activation, without reading their entries where the pool allows. */
  hasEntered(id: string, activationId: string): boolean
  /** The instant (ms) the world is planned around: none of its entries is later. */
  readonly latest: number
  /** A participant's entries, in the world's order. */
  entriesOf(id: string): StoredEntry[] | undefined
  /** The steps that make what reading a participant's entries reads (their activations' skeletons), for a reader that yields between them. */
  entriesInSteps(id: string): Generator<undefined, void>
  /** How many of the list first entered at or before `nowIso`. */
  enteredBy(nowIso: string): number
  /** The steps that make what `enteredBy(nowIso)` reads at once (the skeletons, the first entries' times). */
  countedInSteps(nowIso: string): Generator<undefined, void>
  /** Makes the list's order (its start, or all) in turns: undefined when it is made already. */
  ordered(whole: boolean, nowIso?: string): Promise<void> | undefined
  /** The steps that make the list's whole order, for a reader that yields between them: none once it is made. */
  orderedInSteps(): Generator<undefined, void>
  /** When a participant first entered. */
  firstEnteredAt(id: string): DateObject | undefined
  /** Where a participant stands in the list. */
  position(participant: StoredParticipant): number | undefined
  /** The activations a participant entered, as `StoreIndex.activationsEntered` gives them. */
  activationsEntered(id: string, nowIso?: string): ActivationEntered[] | undefined
  /** Every participant, in the world's order, with when they first entered (ms), kept or not as they were. */
  eachInPoolOrder(): Iterable<readonly [StoredParticipant, number]>
}

/** Each account's participants in a planned world, and the account whose pool holds an id, entered or not (`found`). */
type PlannedAccounts = {
  of(account: string): PlannedParticipants | undefined
  found(id: string): PlannedParticipants | undefined
}
