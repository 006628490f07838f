import { entryField, type StoredActivation, type StoredEntry } from '../contract/stored-records.js'
import { TYPE_RULES } from '../contract/type-rules.js'

// What the entry filters of /activations/:id select, by the rules of each type (src/contract/type-rules.ts).

/** Whether an entry is a winning one (`is_winner=1`). */
export function isWinningEntry(entry: StoredEntry, activation: StoredActivation): boolean {
  switch (TYPE_RULES[activation.type].winners) {
    case 'isWinner':
      return entryField(entry, 'isWinner') === true
    case 'allCorrect':
      return entryField(entry, 'totalCorrect') === activation.config.questionCount
    case null:
      return false
  }
}

/** Whether an entry completed its activation (`is_completed=1`). */
export function isCompletedEntry(entry: StoredEntry, activation: StoredActivation): boolean {
  const questions = activation.config.questionCount
  switch (TYPE_RULES[activation.type].completion) {
    case 'allCorrect':
      return entryField(entry, 'totalCorrect') === questions
    case 'allAnswered':
      // An entry without `questionsAnswered` (written by hand) counts as complete when all its answers are correct.
      return (entry.questionsAnswered ?? entryField(entry, 'totalCorrect')) === questions
    case null:
      return false
  }
}

/** The bracket round and seed an entry voted in, or null for entries without a vote. */
export function bracketVoteOf(entry: StoredEntry): { round: number; seed: number } | null {
  const vote = entryField(entry, 'vote') as { round?: unknown; seed?: unknown } | undefined
  return vote && typeof vote.round === 'number' && typeof vote.seed === 'number'
    ? { round: vote.round, seed: vote.seed }
    : null
}
