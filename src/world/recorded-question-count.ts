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
  const correct = entryRaws.map((e) => (typeof e.totalCorrect === 'number' ? e.totalCorrect : 0))
  const first = known[0]?.totalCorrect
  return typeof first === 'number' && first >= 1 ? first : Math.max(0, ...correct) + 1
}
