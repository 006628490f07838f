import { addressOf } from './address.js'
import { admin, type Json } from './api.js'
import { $, cell, el } from './dom.js'
import { sandbox } from './world.js'

// The report card's tab: the rules the client kept and broke, each finding with its requests, and the
// edge cases the run met (`GET /__emulator/report`, of the world viewed).

/** A finding's requests as `#12 #13`, each a link to the journal's tab of the world viewed. */
function requestLinks(seqs: readonly number[]): HTMLElement {
  const links = el('span', { className: 'requests' })
  const journal = addressOf({ sandbox, view: 'journal' })
  for (const seq of seqs) links.append(el('a', { href: journal, 'data-seq': seq }, `#${seq}`), ' ')
  return links
}

/** A rule's row: its name, what the client does that keeps it, kept or not, and its findings. */
function ruleRow(rule: Json): HTMLElement {
  const findings = el('ul', {})
  for (const finding of rule.findings)
    findings.append(el('li', {}, `${finding.message} `, requestLinks(finding.requests)))
  if (rule.more > 0) findings.append(el('li', {}, `and ${rule.more} more`))
  return el(
    'tr',
    { 'data-rule': rule.rule, className: rule.passed ? '' : 'broken' },
    cell(rule.rule),
    cell(rule.says),
    cell(rule.passed ? 'kept' : 'broken'),
    el('td', {}, rule.findings.length ? findings : ''),
  )
}

/** Reads the report card and shows it. */
export async function loadReport(): Promise<void> {
  const card = await admin('GET', '/report')
  const broken = card.rules.filter((r: Json) => !r.passed).length
  const { count, first, last } = card.requests
  const over = first === null ? 'no requests yet' : `${count} request${count === 1 ? '' : 's'} (#${first} to #${last})`
  $('#report-verdict').textContent =
    `${broken === 0 ? 'Every rule kept' : `${broken} of ${card.rules.length} rules broken`}, over ${over}.`
  $('#report-rules').replaceChildren(...card.rules.map(ruleRow))
  $('#report-edges').replaceChildren(
    ...card.edgeCases.map((c: Json) =>
      el(
        'tr',
        { 'data-edge': c.edgeCase },
        cell(c.edgeCase),
        cell(c.says),
        cell(c.seen ? 'met' : 'not met'),
        el('td', {}, requestLinks(c.requests)),
      ),
    ),
  )
}
