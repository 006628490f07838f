import type { StoredActivation, StoredEntry } from '../../src/contract/stored-records.js'

// The spec's rules written out for the tests' plain scans, apart from the code under test.

const field = (e: StoredEntry, key: string) => (e as Record<string, unknown>)[key]

/**
 * Whether an entry is selected by is_winner=1 at the instant `now`, by the spec's words per type: "giveaways and photo/video
 * contests: entries that won a prize; trivia and pick'em: players who answered every question
 * correctly; scavenger hunts: players selected as winners" (a contest's only once it has ended, the
 * emulator's reading: it is ranked at its end).
 */
export function winsAt(e: StoredEntry, a: StoredActivation, now: string): boolean {
  const q = a.config.questionCount
  switch (a.type) {
    case 'giveaway':
    case 'scavenger':
      return field(e, 'isWinner') === true
    case 'contest':
      return field(e, 'isWinner') === true && a.endTime.iso <= now
    case 'trivia':
    case 'pickem':
      return field(e, 'totalCorrect') === q
    default:
      return false
  }
}
/** Whether an entry is selected by is_completed=1: "scavenger hunt: answered every question correctly; trivia and pick'em: answered every question, correct or not". */
export function completed(e: StoredEntry, a: StoredActivation): boolean {
  const q = a.config.questionCount
  if (a.type === 'scavenger') return field(e, 'totalCorrect') === q
  if (a.type === 'trivia' || a.type === 'pickem') return (e.questionsAnswered ?? field(e, 'totalCorrect')) === q
  return false
}

/**
 * The page sizes, up to `max`, on whose boundary a list of `n` items ends (the divisors of `n`), leaving
 * out those that take more than `maxPages` pages so that a walk stays short.
 */
export const divisorsOf = (n: number, max: number, maxPages = 12) =>
  Array.from({ length: Math.min(n, max) }, (_, i) => i + 1).filter((d) => n % d === 0 && n / d <= maxPages)
