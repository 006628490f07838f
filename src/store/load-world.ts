import { compareDates } from '../contract/date-object.js'
import type { StoredActivation, StoredEntry, StoredParticipant, World } from '../contract/stored-records.js'
import { byStartDesc, type ActivationOrder } from './activation-order.js'
import type { WritableEntryLists } from './entry-lists.js'
import type { LayeredMap } from './layered-map.js'
import type { LoadingParticipant } from './loading-participant.js'
import type { ParticipantOrder } from './participant-order.js'
import { activationProblem, entryProblem, participantProblem, refuse } from './record-checks.js'
import type { ServingOrder } from './serving-order.js'

/** The maps and orders of a `WritableStoreIndex`, as loading a world writes them. */
export type IndexParts = {
  readonly activations: LayeredMap<string, StoredActivation>
  readonly entries: LayeredMap<string, StoredEntry>
  readonly participants: LayeredMap<string, StoredParticipant>
  readonly activationOrder: ActivationOrder
  readonly servingOrder: ServingOrder
  readonly participantOrder: ParticipantOrder
}

/** How many records a step of `loadWorldInSteps` checks and indexes: about a millisecond's worth. */
const RECORDS_PER_STEP = 256

/**
 * Indexes a whole world: the same checks as adding record by record, with each sorted list sorted
 * once at the end instead of kept sorted on every insert. Records no undo step: the index does. A
 * generator that yields every RECORDS_PER_STEP records (for `inTurns`); the last step places the
 * participants at once (a sort of them by first entry).
 */
export function* loadWorldInSteps(parts: IndexParts, world: World): Generator<undefined, void> {
  const { activations, entries, participants, activationOrder, servingOrder, participantOrder } = parts
  const failed = 'Failed to load the world'
  const sorting = new Set<StoredActivation[]>()
  // Records checked and indexed so far: a step every RECORDS_PER_STEP.
  let loaded = 0
  for (const activation of world.activations) {
    refuse(
      activationProblem(activation, activations.has(activation.id), activationOrder.slugTaken(activation.slug)),
      failed,
    )
    activations.set(activation.id, activation)
    sorting.add(activationOrder.append(activation))
    if (++loaded % RECORDS_PER_STEP === 0) yield
  }
  for (const list of sorting) list.sort(byStartDesc)
  // Each participant's entries are gathered in one record, found with one lookup per entry (which
  // also checks the participant exists), and written to the participant indexes once at the end.
  // A taken id does not grow its map: cheaper than a lookup before every set.
  const loading = new Map<string, LoadingParticipant>()
  for (const participant of world.participants) {
    const size = participants.size
    participants.set(participant.id, participant)
    refuse(participantProblem(participant, participants.size === size), failed)
    loading.set(participant.id, {
      participant,
      account: participant.account,
      entries: [],
      first: undefined,
      held: false,
    })
    if (++loaded % RECORDS_PER_STEP === 0) yield
  }
  // A world lists each activation's entries together: its activation and lists are looked up once a run.
  let activationId: string | undefined
  let activation: StoredActivation | undefined
  let lists: WritableEntryLists | undefined
  for (const entry of world.entries) {
    const size = entries.size
    entries.set(entry.id, entry)
    if (entry.activationId !== activationId || !activation || !lists) {
      activationId = entry.activationId
      activation = activations.get(activationId)
      lists = activation && servingOrder.writableListsOf(activationId)
    }
    const participant =
      loading.get(entry.participantId) ?? participantOrder.loadingParticipant(entry.participantId, loading)
    const problem = entryProblem(entry, entries.size === size, activation, participant?.account)
    if (problem !== undefined || !activation || !lists || !participant) throw new Error(`${failed}: ${problem}`)
    servingOrder.append(lists, entry, activation)
    participant.entries.push(entry)
    // Here, while the entry was just read, rather than later over each participant's entries.
    if (!participant.first || compareDates(entry.enteredAt, participant.first) < 0) participant.first = entry.enteredAt
    if (++loaded % RECORDS_PER_STEP === 0) yield
  }
  yield
  yield* participantOrder.placeLoaded(loading.values(), RECORDS_PER_STEP)
}
