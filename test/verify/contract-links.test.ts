import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { probes } from '../../src/node/verify/probes.js'
import { headingAnchors, ROOT } from '../support/doc-blocks.js'

// Each assumption row of docs/contract.md links to the probe of `verify` that checks it, or says why
// none can; every probe linked exists, and the guide lists every probe.

const contract = readFileSync(join(ROOT, 'docs/contract.md'), 'utf8')
const guide = readFileSync(join(ROOT, 'docs/record-and-verify.md'), 'utf8')
const LINK = /^\[verify: ([a-z0-9_-]+)\]\(record-and-verify\.md#probe-\1\)$/

/** The rows of the tables under `## Where the spec says "not shown"`, each as its cells. */
function assumptionRows(): string[][] {
  const section = contract.split('## Where the spec says "not shown"')[1]!.split('\n## ')[0]!
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Spec line') && !line.startsWith('| ---'))
    .map((line) =>
      line
        .slice(2, -2)
        .split(/(?<!\\) \| /)
        .map((cell) => cell.trim()),
    )
}

/** The ids of every probe, in the order verify runs them (the rate count does not change the list). */
const PROBE_IDS = probes({ counted: () => 0, firstAt: () => null, left: () => 0, max: 0 }).map((p) => p.id)

/** The probe ids a "Checked by" cell links to, or null when it says why none can check it. */
function linkedIds(cell: string): string[] | null {
  if (/^not checkable: \S/.test(cell)) return null
  const links = cell.replace(/ \(.*\)$/, '').split(', ')
  return links.map((link) => {
    const m = LINK.exec(link)
    if (!m) throw new Error(`not a probe link: ${link}`)
    return m[1]!
  })
}

describe('docs/contract.md and the probes of verify', () => {
  const rows = assumptionRows()

  it('has both assumption tables, each row with a "Checked by" cell', () => {
    expect(rows.length).toBeGreaterThanOrEqual(38)
    for (const row of rows) expect(row, row[0]).toHaveLength(3)
  })

  it('links each assumption row to a probe that exists, or says why it cannot be checked from outside', () => {
    const unknown: string[] = []
    for (const row of rows) {
      const ids = linkedIds(row[2]!)
      for (const id of ids ?? []) if (!PROBE_IDS.includes(id)) unknown.push(`${row[0]}: ${id}`)
    }
    expect(unknown).toEqual([])
    expect(rows.filter((row) => linkedIds(row[2]!) === null).map((row) => row[0])).toEqual([
      'Trivia and pick\'em completion ("answered every question")',
      '`updatedAt`: "when the activation settings were last updated", with the clock before it',
      "Records after the clock's instant (the clock moved back)",
      '"The 429 response continues until the limiting period is over"',
    ])
  })

  it('links field presence to its probe', () => {
    expect(contract).toContain('[verify: field-presence](record-and-verify.md#probe-field-presence)')
  })

  it('lists every probe in the guide, in the order they run, each with the anchor its links reach', () => {
    const anchors = headingAnchors(guide)
    expect(anchors.has('the-probes')).toBe(true)
    const rows = [
      ...guide.split('### The probes')[1]!.matchAll(/^\| <a id="probe-([a-z0-9_-]+)"><\/a>`([a-z0-9_-]+)` \|/gm),
    ]
    expect(rows.map((m) => m[2])).toEqual(PROBE_IDS)
    for (const [, anchor, id] of rows) {
      expect(anchor).toBe(id)
      expect(anchors.has(`probe-${id}`)).toBe(true)
    }
  })

  it('gives every probe an id of its own', () => {
    expect(new Set(PROBE_IDS).size).toBe(PROBE_IDS.length)
  })
})
