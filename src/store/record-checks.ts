import type { StoredActivation, StoredEntry, StoredParticipant } from '../contract/stored-records.js'

// The rules a record keeps to join the store's index, for the bulk loader and for single writes
// alike. Each returns what is wrong, or undefined; the caller says what failed (see `refuse`).

export function activationProblem(
  activation: StoredActivation,
  idTaken: boolean,
  slugTaken: boolean,
): string | undefined {
  if (idTaken) return `the activation id ${activation.id} is taken`
  if (slugTaken) return `the slug ${activation.slug} is taken`
  return undefined
}

export function participantProblem(participant: StoredParticipant, idTaken: boolean): string | undefined {
  return idTaken ? `the participant id ${participant.id} is taken` : undefined
}

export function entryProblem(
  entry: StoredEntry,
  idTaken: boolean,
  activation: StoredActivation | undefined,
  participantAccount: string | undefined,
): string | undefined {
  if (idTaken) return `the entry id ${entry.id} is taken`
  if (!activation) return `entry ${entry.id}: no activation has the id ${entry.activationId}`
  if (participantAccount === undefined) return `entry ${entry.id}: no participant has the id ${entry.participantId}`
  if (participantAccount !== activation.account)
    return `entry ${entry.id}: participant ${entry.participantId} is not of the account ${activation.account}`
  return undefined
}

/** Throws "<failed>: <problem>" if there is a problem. */
export function refuse(problem: string | undefined, failed: string): void {
  if (problem !== undefined) throw new Error(`${failed}: ${problem}`)
}
