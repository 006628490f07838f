import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FILTER_TYPES } from '../src/contract/enums.js'
import { entryFieldsByType } from '../src/contract/entry.js'
import { TYPE_RULES, type TypeRules } from '../src/contract/type-rules.js'

const README = readFileSync(new URL('../docs/contract.md', import.meta.url), 'utf8')
const START = '<!-- type-rules: start -->'
const END = '<!-- type-rules: end -->'

const WINNERS: Record<NonNullable<TypeRules['winners']>, string> = {
  isWinner: '`isWinner` is true',
  allCorrect: 'every answer correct',
}
const COMPLETION: Record<NonNullable<TypeRules['completion']>, string> = {
  allCorrect: 'every answer correct',
  allAnswered: 'every question answered',
}
const yes = (value: boolean) => (value ? 'yes' : '')

/** The table of per-type rules in docs/contract.md, as TYPE_RULES gives it. */
function rulesTable(): string {
  const lines = [
    '| type | `is_winner` selects | `is_completed` selects | prizes | questions | replays | voided prizes | `bracket_round`, `bracket_seed` | ranked once ended |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ]
  for (const type of FILTER_TYPES) {
    const r = TYPE_RULES[type]
    const cells = [
      type,
      r.winners ? WINNERS[r.winners] : '',
      r.completion ? COMPLETION[r.completion] : '',
      yes(r.prizes),
      yes(r.questions),
      yes(r.replays),
      yes(r.voids),
      yes(r.rounds && r.seeds),
      yes(r.ranked),
    ]
    lines.push(`| ${cells.join(' | ')} |`.replace(/ {2}/g, ' '))
  }
  return lines.join('\n')
}

describe('the per-type rules', () => {
  it('are the table of docs/contract.md', () => {
    const at = README.indexOf(START)
    const end = README.indexOf(END)
    expect(at, `docs/contract.md lacks ${START}`).toBeGreaterThanOrEqual(0)
    const table = README.slice(at + START.length, end).trim()
    expect(table, 'docs/contract.md: replace the table between the type-rules markers with the expected one').toBe(
      rulesTable(),
    )
  })

  it.each(FILTER_TYPES)('agree with the fields of a %s entry', (type) => {
    const rules = TYPE_RULES[type]
    const has = (field: string) => field in entryFieldsByType[type]
    if (rules.winners === 'isWinner') expect(has('isWinner')).toBe(true)
    if (rules.winners === 'allCorrect' || rules.completion === 'allCorrect') expect(has('totalCorrect')).toBe(true)
    expect(rules.questions).toBe(has('totalCorrect'))
    expect(rules.prizes).toBe(has('prize'))
    expect(rules.replays).toBe(has('isReplay'))
    expect(rules.voids).toBe(has('voidedAt'))
    expect(rules.rounds).toBe(has('vote'))
    expect(rules.seeds).toBe(has('vote'))
    expect(rules.ranked).toBe(has('rank'))
  })

  it.each(FILTER_TYPES)('give a %s defaults only for what it has', (type) => {
    const { defaults, ...rules } = TYPE_RULES[type]
    expect(defaults.winners !== null).toBe(rules.winners !== null)
    if (defaults.winners?.of === 'completed' || defaults.completed > 0) expect(rules.completion).not.toBeNull()
    if (defaults.replays > 0) expect(rules.replays).toBe(true)
    if (defaults.voided > 0) expect(rules.voids).toBe(true)
  })
})
