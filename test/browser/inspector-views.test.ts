import type { Page } from 'playwright-core'
import { afterEach, beforeAll, expect, it } from 'vitest'
import { stateOf } from '../../src/contract/state.js'
import type { Emulator, RunningServer } from '../../src/index.js'
import { describeInChromium } from '../support/chromium.js'
import { inspectorInChromium } from '../support/inspector-page.js'

const describe = describeInChromium(import.meta.url)

// The inspector's overview, its entries' fields and hint, and the journal's response heading, in
// Debian's chromium against a running server: what the page shows is checked against the API's answers.
const NOW = '2026-06-01T12:00:00.000Z'
const KEY = { Authorization: 'Api-Key demo-key' }

const rig = inspectorInChromium(NOW)
let emulator: Emulator
let server: RunningServer
let page: Page
beforeAll(() => void ({ emulator, server } = rig))
// No console error and no uncaught exception on any page of these tests.
afterEach(() => expect(rig.consoleErrors).toEqual([]))

/** A fresh page on a fresh world, at an address (`''`: none). */
const open = async (hash: string): Promise<Page> => (page = await rig.open(hash))

/** The admin API's view of the demo account (never journaled). */
const view = async (path: string) => (await fetch(`${server.adminUrl}/view/demo${path}`)).json()
const texts = (selector: string) => page.$$eval(selector, (cells) => cells.map((c) => c.textContent))

describe('the inspector', () => {
  it("opens on the overview: the world's counts and its activations by type and state, as the API answers them", async () => {
    await open('')
    await page.waitForSelector('#overview-types tr[data-type="all"]')
    await expect(page.locator('#view-overview').isVisible()).resolves.toBe(true)
    await expect(page.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).resolves.toBe('true')
    const { counts, clock, accounts } = emulator.state()
    const figure = (name: string) => page.locator(`#overview tr[data-count="${name}"] td`).textContent()
    await expect(figure('activations')).resolves.toBe(String(counts.activations))
    await expect(figure('entries')).resolves.toBe(String(counts.entries))
    await expect(figure('participants')).resolves.toBe(String(counts.participants))
    await expect(figure('accounts')).resolves.toBe(String(accounts.length))
    await expect(figure('clock')).resolves.toBe('2026-06-01 12:00:00Z (frozen)')
    expect(clock.now).toBe(NOW)

    const { activations } = await view('/activations/list?limit=100')
    expect(activations.length).toBe(counts.activations)
    const expected: Record<string, Record<string, number>> = {}
    for (const a of activations) {
      expected[a.type] ??= { not_started: 0, running: 0, ended: 0 }
      expected[a.type]![stateOf(a, Date.parse(NOW))]! += 1
    }
    const shown: Record<string, Record<string, number>> = {}
    for (const row of await page.$$eval('#overview-types tr[data-type]', (rows) =>
      rows.map((r) => [...r.children].map((c) => c.textContent!)),
    )) {
      const [type, notStarted, running, ended] = row as [string, string, string, string]
      if (type !== 'all') shown[type] = { not_started: +notStarted, running: +running, ended: +ended }
    }
    expect(shown).toEqual(expected)
    const all = await texts('#overview-types tr[data-type="all"] th')
    expect(all.slice(1).reduce((sum, n) => sum + Number(n), 0)).toBe(counts.activations)

    // A day on, the clock's row follows.
    await page.getByRole('button', { name: '+1 d' }).click()
    await page.waitForSelector('#overview tr[data-count="clock"] td:has-text("2026-06-02 12:00:00Z")')
  })

  it('says how to choose an activation when the entries view is opened by its address', async () => {
    await open('#entries')
    await expect(page.locator('#view-entries').isVisible()).resolves.toBe(true)
    await expect(page.locator('#entries td').textContent()).resolves.toBe(
      'Choose an activation: type its id (or latest) above and Show, or choose an id in the Activations tab.',
    )
  })

  it("shows each entry's fields cut at a field with an ellipsis, and the whole entry pretty-printed when opened", async () => {
    await open('#activations')
    await page.locator('#activations tr').first().waitFor()
    // An activation whose first entry's fields are longer than the cell shows.
    const { activations } = await view('/activations/list?limit=100')
    let chosen = ''
    for (const a of activations) {
      const { entries } = await view(`/activations/${a.id}?limit=1`)
      if (entries.length > 0 && JSON.stringify(entries[0]).length > 400) {
        chosen = a.id
        break
      }
    }
    await page.locator(`#activations tr[data-id="${chosen}"]`).getByRole('button').click()
    await page.waitForSelector('#entries tr[data-id]')
    const { entries } = await view(`/activations/${chosen}?limit=20`)
    const { id, enteredAt: _at, email: _email, ...fields } = entries[0]
    const json = JSON.stringify(fields)
    expect(json.length).toBeGreaterThan(200)

    const row = page.locator(`#entries tr[data-id="${id}"]`)
    const summary = (await row.locator('summary').textContent())!
    expect(summary.endsWith('…')).toBe(true)
    const head = summary.slice(0, -1)
    expect(head.length).toBeLessThanOrEqual(160)
    expect(json.startsWith(head)).toBe(true)
    // Cut before a field or a word, never inside one.
    expect([',', ' ']).toContain(json[head.length])

    await expect(row.locator('pre').isVisible()).resolves.toBe(false)
    await row.locator('summary').click()
    await expect(row.locator('pre').isVisible()).resolves.toBe(true)
    // The disclosure's toggle event, which fills it, comes in a task after the click.
    await row.locator('pre', { hasText: '{' }).waitFor()
    const whole = (await row.locator('pre').textContent())!
    expect(whole).toBe(JSON.stringify(fields, null, 2))
  })

  it("heads a journaled request's response with its path and query", async () => {
    await open('#journal')
    await fetch(`${server.url}/activations/list?limit=5&state=running`, { headers: KEY })
    const seq = emulator.journal.entries().at(-1)!.seq
    const row = page.locator(`#journal tr[data-seq="${seq}"]`)
    await row.getByRole('button', { name: String(seq) }).click()
    await page.waitForSelector(`#response-title:has-text("#${seq}")`)
    await expect(page.locator('#response-title').textContent()).resolves.toBe(
      `Response to #${seq} GET /activations/list?limit=5&state=running: 200`,
    )
  })

  /** What the journal's response shows: its lines, its bodies as JSON, and the line that compares them. */
  async function shownResponse(seq: number) {
    await page
      .locator(`#journal tr[data-seq="${seq}"]`)
      .getByRole('button', { name: String(seq) })
      .click()
    await page.waitForSelector(`#response-title:has-text("#${seq}")`)
    await page.locator('#response-compare').waitFor()
    const text = (selector: string) => page.locator(selector).textContent()
    return {
      answered: await text('#response-answered'),
      body: JSON.parse((await text('#response'))!) as unknown,
      nowTitle: await text('#response-now-title'),
      now: JSON.parse((await text('#response-now'))!) as unknown,
      compare: await text('#response-compare'),
    }
  }

  it("shows a 200's body as answered, and beside it the same request asked now, the same while nothing changed", async () => {
    await open('#journal')
    const sent = await (await fetch(`${server.url}/activations/list?limit=5`, { headers: KEY })).json()
    const { seq, next } = emulator.journal.entries().at(-1)!
    expect(next).toEqual(expect.any(String))
    const shown = await shownResponse(seq)
    expect(shown.answered).toBe(`Answered 200 at 2026-06-01 12:00:00Z (clock), next ${next}:`)
    expect(shown.body).toEqual(sent)
    expect(shown.nowTitle).toBe(
      'The same request asked again now, at 2026-06-01 12:00:00Z (GET /__emulator/view/demo/activations/list): 200',
    )
    expect(shown.now).toEqual(sent)
    expect(shown.compare).toBe('The body asked now is the same as the one answered.')
    // Side by side on a wide window.
    const [answeredBox, nowBox] = await Promise.all([
      page.locator('#response').boundingBox(),
      page.locator('#response-now').boundingBox(),
    ])
    expect(nowBox!.x).toBeGreaterThan(answeredBox!.x + answeredBox!.width)
  })

  it('after entries are added, shows the body answered as it was, and says the one asked now differs, naming the ids', async () => {
    await open('#journal')
    // An activation of its own, running with no entries yet: its page holds every entry added.
    const made = await fetch(`${server.adminUrl}/activations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"type":"giveaway","state":"running","entries":0}',
    })
    const { id } = (await made.json()) as { id: string }
    const path = `/activations/${id}?limit=100`
    const sent = await (await fetch(`${server.url}${path}`, { headers: KEY })).json()
    expect(sent.next).toBeNull()
    const { seq } = emulator.journal.entries().at(-1)!
    const added = await fetch(`${server.adminUrl}/activations/${id}/entries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"count":2}',
    })
    const { entries: ids } = (await added.json()) as { entries: string[] }
    const shown = await shownResponse(seq)
    expect(shown.answered).toBe('Answered 200 at 2026-06-01 12:00:00Z (clock), next null:')
    expect(shown.body).toEqual(sent)
    expect(shown.now).toEqual(await view(path))
    expect(shown.now).not.toEqual(sent)
    expect(shown.compare).toMatch(/^The body asked now differs from the one answered in /)
    expect(shown.compare).toContain(`entries (2 added (${ids.join(', ')}))`)
  })

  it('after the clock moved a day, says which activations the running ones asked now have lost', async () => {
    await open('#journal')
    const path = '/activations/list?state=running&limit=100'
    const sent = await (await fetch(`${server.url}${path}`, { headers: KEY })).json()
    const { seq } = emulator.journal.entries().at(-1)!
    await page.getByRole('button', { name: '+1 d' }).click()
    await page.waitForSelector('#clock-now:has-text("2026-06-02 12:00:00Z")')
    const shown = await shownResponse(seq)
    expect(shown.body).toEqual(sent)
    expect(shown.nowTitle).toBe(
      'The same request asked again now, at 2026-06-02 12:00:00Z (GET /__emulator/view/demo/activations/list): 200',
    )
    const now = await view(path)
    expect(shown.now).toEqual(now)
    const ids = (list: Array<{ id: string }>) => list.map((a) => a.id)
    const gone = ids(sent.activations).filter((id) => !ids(now.activations).includes(id))
    expect(gone.length).toBeGreaterThan(0)
    expect(shown.compare).toBe(
      `The body asked now differs from the one answered in activations (${gone.length} gone (${gone.join(', ')})).`,
    )
  })

  it("shows the client's report card: each rule kept or broken with its findings' requests, and the edge cases met", async () => {
    await open('')
    // A client that reads the first page with its key, then once without: one rule broken, a 401 met.
    await fetch(`${server.url}/activations/list?limit=100`, { headers: KEY })
    await fetch(`${server.url}/activations/list?limit=100`)
    const [first, second] = emulator.journal.entries().map((e) => e.seq)
    await page.getByRole('tab', { name: 'Report' }).click()
    await page.waitForSelector('#report-rules tr[data-rule]')
    const card = emulator.report()
    await expect(page.locator('#report-verdict').textContent()).resolves.toBe(
      `1 of ${card.rules.length} rules broken, over 2 requests (#${first} to #${second}).`,
    )
    const rows = await page.$$eval('#report-rules tr[data-rule]', (trs) =>
      trs.map((tr) => [tr.getAttribute('data-rule'), tr.children[2]!.textContent]),
    )
    expect(rows).toEqual(card.rules.map((r) => [r.rule, r.passed ? 'kept' : 'broken']))
    const finding = page.locator('#report-rules tr[data-rule="key-on-every-request"] li')
    await expect(finding.textContent()).resolves.toBe(
      `#${second} GET /activations/list?limit=100 carried no Authorization: Api-Key <key> #${second} `,
    )
    const met = await page.$$eval('#report-edges tr[data-edge]', (trs) =>
      trs.filter((tr) => tr.children[2]!.textContent === 'met').map((tr) => tr.getAttribute('data-edge')),
    )
    expect(met).toEqual(card.edgeCases.filter((c) => c.seen).map((c) => c.edgeCase))
    expect(met).toContain('401')
    // A request's number goes to the journal's tab.
    await finding.getByRole('link', { name: `#${second}` }).click()
    await page.waitForSelector('#view-journal:not([hidden])')
  })
})
