import type { ProbeResult, VerifyPlan, VerifyReport } from './verify.js'

/** A table cell: no line breaks, no column bars. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|')

const MARK: Record<ProbeResult['result'], string> = {
  confirmed: 'confirmed',
  differs: '**differs**',
  'not-checkable': 'not checkable',
}

/** The detail of a result: what was found, the request that showed a difference, the setting that matches it. */
function detailOf(result: ProbeResult): string {
  if (result.result !== 'differs') return result.detail
  const parts = [result.detail, `request: \`${result.request}\``]
  parts.push(result.setting ? `setting: \`${result.setting}\`` : 'no setting matches it')
  return parts.join('; ')
}

/** The plan in one line, as printed before the first request. */
export function planLine(plan: VerifyPlan): string {
  if (plan.discovery + plan.probes > plan.total) {
    return `Plan: at most ${plan.total} requests (--max-requests ${plan.total}), fewer than reading the account (up to ${plan.discovery}) and the ${plan.probeCount} probes (up to ${plan.probes}) take: the probes that do not fit are not checkable, and no rate limit is looked for`
  }
  return `Plan: at most ${plan.total} requests: ${plan.discovery} to read the account, ${plan.probes} for ${plan.probeCount} probes, up to ${plan.rateLimit} to look for a rate limit (--max-requests ${plan.total})`
}

/**
 * The report as Markdown, readable in a CI log as it is: a summary line, then a table of every
 * assumption (the probe's id, its result, and the detail).
 * @example process.stdout.write(markdownReport(report))
 */
export function markdownReport(report: VerifyReport): string {
  const { confirmed, differs } = report.counts
  const lines = [
    `# activation-emulator verify`,
    '',
    `Against ${report.against}: ${confirmed} confirmed, ${differs} differ, ${report.counts['not-checkable']} not checkable (${report.requests} requests).`,
    '',
    '| assumption | result | detail |',
    '| --- | --- | --- |',
    ...report.results.map((r) => `| \`${r.id}\`: ${cell(r.assumption)} | ${MARK[r.result]} | ${cell(detailOf(r))} |`),
    '',
  ]
  return lines.join('\n')
}

/** The report for machines: `--json`. */
export function jsonReport(report: VerifyReport): string {
  return `${JSON.stringify({ format: 'activation-emulator/verify@1', ...report }, null, 2)}\n`
}
