import type { TypeRules } from '../contract/type-rules.js'
import { itemsOf, type Raw } from './recorded-fields.js'
import { pagesFor, type RecordedAccount } from './recording.js'

/**
 * An activation's question count, which the API does not send, for a type that has questions (null for
 * the others): the `totalCorrect` of its first winner where winners answered every question correctly,
 * else of its first completed entry; without one, one more than the most any of its entries (`entryRaws`)
 * got right.
 */
export function recordedQuestionCount(
  rules: Readonly<TypeRules>,
  account: RecordedAccount,
  id: string,
  entryRaws: readonly Raw[],
): number | null {
  if (!rules.questions) return null
  const known =
    rules.winners === 'allCorrect'
      ? itemsOf(pagesFor(account.winners, id), 'entries')
      : itemsOf(pagesFor(account.completed, id), 'entries')
  const first = known[0]?.totalCorrect
  if (typeof first === 'number' && first >= 1) return first
  // The most any entry got right, by a loop: an activation's entries are too many to spread into `Math.max`.
  let most = 0
  for (const e of entryRaws) if (typeof e.totalCorrect === 'number' && e.totalCorrect > most) most = e.totalCorrect
  return most + 1
}
