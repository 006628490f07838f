import type { DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import type { StoredEntry, StoredParticipant } from '../contract/stored-records.js'

/** What a layer reads of the participant order it stands over: a whole one's, or a planned world's read as asked. */
export type ParticipantBase = {
  /** Each participant's entries, by participant id (never written through a layer). */
  readonly entriesOf: ReadonlyMap<string, StoredEntry[]>
  /** Each account's participants who have entered, by first entry, then id (never written through a layer). */
  readonly byAccount: ReadonlyMap<string, StoredParticipant[]>
  /** When each participant who has entered first entered, by participant id. */
  readonly firstEntered: ReadonlyMap<string, DateObject>
  /**
   * The activations a participant entered, as `ParticipantOrder.activationsEntered` gives them,
   * without reading their entries; undefined for anyone who has not entered. Read while a layer has
   * not changed the participant's entries.
   */
  activationsEntered?(participantId: string, nowIso?: string): readonly ActivationEntered[] | undefined
  /**
   * How many of an account's participants first entered at or before `nowIso`, without reading the
   * last of them (a planned world's list is not ordered past its start until asked). Read while a
   * layer has not changed the account's list.
   */
  participantsBy?(account: string, nowIso: string): number | undefined
  /** The steps that make what `participantsBy` reads at `nowIso` (see `StoreIndex.participantsCountedInSteps`). */
  countedInSteps?(account: string, nowIso: string): Generator<undefined, void> | undefined
  /** Makes an account's list's order in turns where it is not made (see `StoreIndex.participantsOrdered`). */
  ordered?(account: string, whole: boolean, nowIso: string): Promise<void> | undefined
  /** The steps that make an account's list's whole order (see `StoreIndex.participantsOrderedInSteps`). */
  orderedInSteps?(account: string): Generator<undefined, void> | undefined
  /** Whether a participant has an entry in an activation, without reading their entries. */
  hasEntered?(participantId: string, activationId: string): boolean
  /** The steps that make what reading a participant's entries or first entry reads (a planned world's skeletons). */
  entriesInSteps?(participantId: string): Generator<undefined, void> | undefined
  /** An instant (ms) a participant's first entry, if any, is not after, known without reading them; Infinity if unknown. */
  firstBy?(participantId: string): number
}
