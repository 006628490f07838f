import type { StoredActivation, StoredEntry, StoredParticipant } from './stored-records.js'
import { endedAt } from './state.js'
import { TYPE_RULES } from './type-rules.js'

// What a record shows at an instant of the clock. The store keeps each record as it is once
// everything about it has happened; the API shows it as it stood at the clock's instant. Instants are
// compared as ISO strings (every stored DateObject has the same millisecond form, so the text order is
// the time order), read once per request.

/** Whether an activation exists at `nowIso`: it was created at or before it. */
export function activationExistsAt(activation: StoredActivation, nowIso: string): boolean {
  return activation.createdAt.iso <= nowIso
}

/**
 * Whether an activation shows another face at `nowIso`: its settings' last update is still to come,
 * so `updatedAt` shows `createdAt` (the emulator's choice: before its one update, an activation had
 * only been created).
 */
export function activationChangesAfter(activation: StoredActivation, nowIso: string): boolean {
  return activation.updatedAt.iso > nowIso
}

/** An activation as it stood at `nowIso` (the record itself when nothing about it is still to come). */
export function activationAt(activation: StoredActivation, nowIso: string): StoredActivation {
  return activationChangesAfter(activation, nowIso) ? { ...activation, updatedAt: activation.createdAt } : activation
}

/** Whether an entry exists at `nowIso`: it was entered at or before it. */
export function entryExistsAt(entry: StoredEntry, nowIso: string): boolean {
  return entry.enteredAt.iso <= nowIso
}

/** Whether the activation's ranking (and so its winners) is out at `nowIso`: always for unranked types, from the end for ranked ones. */
export function resultsOutAt(activation: StoredActivation, nowIso: string): boolean {
  return !TYPE_RULES[activation.type].ranked || endedAt(activation, nowIso)
}

/**
 * Whether an entry shows less at `nowIso` than the store keeps: a prize voided after it (no
 * `voidedAt` yet), or a ranked activation that has not ended (no rank, no win, no prize, nothing
 * fulfilled yet).
 */
export function entryChangesAfter(entry: StoredEntry, activation: StoredActivation, nowIso: string): boolean {
  return changesAfterOf(voidedIsoOf(entry), showsResults(entry), activation, nowIso)
}

/** When an entry's prize was voided, as ISO text; undefined if it was not. */
export function voidedIsoOf(entry: StoredEntry): string | undefined {
  return ((entry as Record<string, unknown>).voidedAt as { iso: string } | undefined)?.iso
}

/** Whether an entry shows results (a rank, a win, a prize, a fulfilment), which a ranked activation hides until it ends. */
export function showsResults(entry: StoredEntry): boolean {
  const e = entry as Record<string, unknown>
  return e.rank !== undefined || e.isWinner === true || (e.prize ?? null) !== null || e.isFulfilled === true
}

/** `entryChangesAfter` for an entry known only by its `voidedIsoOf` and `showsResults`. */
export function changesAfterOf(
  voidedIso: string | undefined,
  results: boolean,
  activation: StoredActivation,
  nowIso: string,
): boolean {
  if (voidedIso !== undefined && voidedIso > nowIso) return true
  return results && !resultsOutAt(activation, nowIso)
}

/** An entry as it stood at `nowIso` (the record itself when nothing about it is still to come). */
export function entryAt(entry: StoredEntry, activation: StoredActivation, nowIso: string): StoredEntry {
  if (!entryChangesAfter(entry, activation, nowIso)) return entry
  const shown = { ...entry } as Record<string, unknown>
  const voided = shown.voidedAt as { iso: string } | undefined
  if (voided !== undefined && voided.iso > nowIso) delete shown.voidedAt
  if (!resultsOutAt(activation, nowIso)) {
    delete shown.rank
    if ('isWinner' in shown) shown.isWinner = false
    if ('prize' in shown) shown.prize = null
    if ('isFulfilled' in shown) shown.isFulfilled = false
  }
  return shown as StoredEntry
}

/** Whether a participant has answers still to come at `nowIso`. */
export function participantChangesAfter(participant: StoredParticipant, nowIso: string): boolean {
  return participant.extras.some((x) => x.answeredAt.iso > nowIso)
}

/** A participant's profile answers as they stood at `nowIso`. */
export function participantExtrasAt(participant: StoredParticipant, nowIso: string): StoredParticipant['extras'] {
  return participantChangesAfter(participant, nowIso)
    ? participant.extras.filter((x) => x.answeredAt.iso <= nowIso)
    : participant.extras
}
