import { entryField, type StoredActivation, type StoredEntry } from '../contract/stored-records.js'

// What the entry filters of /activations/:id select, as the spec defines them per type.

/**
 * Whether an entry is a winning one (`is_winner=1`). Giveaways, contests and scavenger hunts: the
 * entry's `isWinner`. Trivia and pick'em: every question answered correctly.
 */
export function isWinningEntry(entry: StoredEntry, activation: StoredActivation): boolean {
  switch (activation.type) {
    case 'trivia':
    case 'pickem':
      return entryField(entry, 'totalCorrect') === activation.config.questionCount
    case 'giveaway':
    case 'contest':
    case 'scavenger':
      return entryField(entry, 'isWinner') === true
    default:
      return false
  }
}

/**
 * Whether an entry completed its activation (`is_completed=1`). Scavenger hunts: every question
 * answered correctly. Trivia and pick'em: every question answered, correctly or not.
 */
export function isCompletedEntry(entry: StoredEntry, activation: StoredActivation): boolean {
  const questions = activation.config.questionCount
  switch (activation.type) {
    case 'scavenger':
      return entryField(entry, 'totalCorrect') === questions
    case 'trivia':
    case 'pickem':
      return (entry.questionsAnswered ?? entryField(entry, 'totalCorrect')) === questions
    default:
      return false
  }
}

/** The round and seed a bracket entry voted in, or null for other entries. */
export function bracketVoteOf(entry: StoredEntry): { round: number; seed: number } | null {
  const vote = entryField(entry, 'vote') as { round?: unknown; seed?: unknown } | undefined
  return vote && typeof vote.round === 'number' && typeof vote.seed === 'number'
    ? { round: vote.round, seed: vote.seed }
    : null
}
