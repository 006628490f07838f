import type { ReportCard } from './report-card.js'

// The report card as text: JUnit XML (one test case a rule, a failure per rule broken) for a CI's
// test report, and Markdown for a CI job's summary.

/** The formats a card is written in. */
export type ReportFormat = 'json' | 'junit' | 'markdown'

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/** Text as XML may hold it: escaped, and without the control characters XML 1.0 forbids. */
function xml(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!)
}

/** What a rule's findings come to, as lines: each finding, then how many more there were. */
function findingLines(rule: ReportCard['rules'][number]): string[] {
  const lines = rule.findings.map((f) => f.message)
  if (rule.more > 0) lines.push(`and ${rule.more} more`)
  return lines
}

/**
 * A JUnit XML report: one test suite, a test case a rule (failed with its findings when broken),
 * and one for each edge case (skipped when the run did not meet it).
 * @example writeFileSync('client-report.xml', reportAsJUnit(emulator.report()))
 */
export function reportAsJUnit(card: ReportCard): string {
  const broken = card.rules.filter((r) => !r.passed).length
  const unseen = card.edgeCases.filter((c) => !c.seen).length
  const cases = card.rules.map((rule) => {
    const head = `    <testcase classname="client.rules" name="${xml(rule.rule)}: ${xml(rule.says)}"`
    if (rule.passed) return `${head}/>`
    const lines = findingLines(rule)
    return `${head}>\n      <failure message="${xml(lines[0]!)}">${xml(lines.join('\n'))}</failure>\n    </testcase>`
  })
  for (const c of card.edgeCases) {
    const head = `    <testcase classname="client.edge-cases" name="${xml(c.edgeCase)}: ${xml(c.says)}"`
    cases.push(c.seen ? `${head}/>` : `${head}>\n      <skipped message="not met in this run"/>\n    </testcase>`)
  }
  const total = card.rules.length + card.edgeCases.length
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="activation-emulator client report" tests="${total}" failures="${broken}" skipped="${unseen}">`,
    `  <testsuite name="client report card" tests="${total}" failures="${broken}" skipped="${unseen}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}

/** Text in a Markdown table's cell: no line break, no `|` that would end it. */
const cell = (text: string): string => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|')

/**
 * The card in Markdown, for a CI job's summary: the verdict, a table of the rules, each broken rule's
 * findings, and the edge cases met and not.
 * @example appendFileSync(process.env.GITHUB_STEP_SUMMARY!, reportAsMarkdown(emulator.report()))
 */
export function reportAsMarkdown(card: ReportCard): string {
  const { count, first, last } = card.requests
  const range = first === null ? 'no requests' : `${count} request${count === 1 ? '' : 's'} (#${first} to #${last})`
  const broken = card.rules.filter((r) => !r.passed)
  const lines = [
    '## Client report card',
    '',
    `${card.passed ? 'Every rule kept' : `${broken.length} of ${card.rules.length} rules broken`}, over ${range}.`,
    '',
    '| rule | the client | kept |',
    '| --- | --- | --- |',
    ...card.rules.map(
      (r) => `| \`${r.rule}\` | ${cell(r.says)} | ${r.passed ? 'yes' : `**no** (${r.findings.length + r.more})`} |`,
    ),
  ]
  for (const rule of broken) {
    lines.push('', `### \`${rule.rule}\``, '')
    for (const line of findingLines(rule)) lines.push(`- ${cell(line)}`)
  }
  const met = card.edgeCases.filter((c) => c.seen)
  const missed = card.edgeCases.filter((c) => !c.seen)
  lines.push('', '### Edge cases', '', `Met ${met.length} of ${card.edgeCases.length}.`, '')
  lines.push('| edge case | met | requests |', '| --- | --- | --- |')
  for (const c of [...met, ...missed]) {
    lines.push(
      `| \`${c.edgeCase}\`: ${cell(c.says)} | ${c.seen ? 'yes' : 'no'} | ${c.requests.map((s) => `#${s}`).join(' ')} |`,
    )
  }
  return `${lines.join('\n')}\n`
}

/**
 * The card as the text of `format`: JSON (two-space indented), JUnit XML or Markdown.
 * @example reportText(emulator.report(), 'markdown')
 */
export function reportText(card: ReportCard, format: ReportFormat): string {
  if (format === 'junit') return reportAsJUnit(card)
  if (format === 'markdown') return reportAsMarkdown(card)
  return `${JSON.stringify(card, null, 2)}\n`
}
