import { participantExtrasAt } from '../contract/at-instant.js'
import type { ActivationEntered } from '../contract/nested.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import { recordedOf, type Raw } from './recorded-fields.js'

/**
 * Compares what the participants list derives from entries (`activationsEntered`, `firstEnteredAt`
 * at `builtAt`) with what was sent for each of an account's participants, once every entry is in,
 * and keeps as sent (`recorded`) what differs. A participant without a recorded entry is reported:
 * the list leaves them out.
 */
export function pinDerivedParticipantFields(
  participantRaws: ReadonlyMap<StoredParticipant, Raw>,
  pinnedLater: ReadonlyMap<StoredParticipant, string[]>,
  activations: readonly StoredActivation[],
  entries: readonly StoredEntry[],
  builtAt: string,
  problems: string[],
): void {
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
}
