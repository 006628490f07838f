import type { Page } from 'playwright-core'
import { beforeAll, beforeEach, expect, it } from 'vitest'
import type { Emulator, RunningServer } from '../../src/index.js'
import { WAIT } from '../support/timeouts.js'
import { describeInChromium } from '../support/chromium.js'
import { inspectorInChromium } from '../support/inspector-page.js'

const describe = describeInChromium(import.meta.url)

// The inspector of a server with sandboxes, in Debian's chromium: the Sandboxes view lists them, and a
// sandbox chosen there is the world every view shows (its own admin endpoints), until the way back.
// The sandboxes are opened, used and ended over HTTP, as a test suite sharing the server would.
const NOW = '2026-06-01T12:00:00.000Z'

const rig = inspectorInChromium(NOW)
let host: Emulator
let server: RunningServer
let page: Page
beforeAll(() => void ({ emulator: host, server } = rig))
/** Two sandboxes opened over HTTP for each test: their ids and their demo account's key. */
let first: { id: string; key: string }
let second: { id: string; key: string }

/** `method /__emulator<path>` with a JSON body: the answer's status and body. */
async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.adminUrl}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
  return { status: response.status, body: await response.json() }
}

/** Opens a sandbox over HTTP (`POST /__emulator/sandboxes`). */
async function openSandbox(options: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const { status, body } = await admin('POST', '/sandboxes', options)
  expect(status).toBe(201)
  return { id: body.id, key: body.apiKeys.demo[0] }
}

/** An API request at the server's base URL, with a key (a sandbox's key reaches that sandbox). */
const api = (path: string, key: string) =>
  fetch(`${server.url}${path}`, { headers: { Authorization: `Api-Key ${key}` } })

beforeEach(async () => {
  await host.reset()
  for (const open of host.sandboxes.list()) host.sandboxes.end(open.id)
  first = await openSandbox({ label: 'first' })
  second = await openSandbox({ label: 'second' })
})

/**
 * A fresh page at an address (`#sandboxes`, `#sandbox=<id>/journal`...), on the world as `beforeEach`
 * left it; a step that waits fails on its own, well inside the test's time, saying what it waited for.
 */
const open = async (hash: string): Promise<Page> =>
  (page = await rig.open(hash, { reset: false, ready: null, timeout: WAIT.soon }))

const tab = (name: string) => page.getByRole('tab', { name })
/** The cells' text of each row of a table body. */
const rows = (tbody: string) =>
  page.$$eval(`${tbody} tr`, (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))
/** The ids of the activations shown, after asking for a page of 100. */
async function activationIds(): Promise<string[]> {
  await tab('Activations').click()
  await page.locator('#activations-form [name=limit]').fill('100')
  await page.locator('#activations-form').getByRole('button', { name: 'Show' }).click()
  await page.waitForFunction(() => document.querySelectorAll('#activations tr[data-id]').length >= 50)
  return page.$$eval('#activations tr[data-id]', (trs) => trs.map((tr) => tr.getAttribute('data-id')!))
}

describe('the Sandboxes view', () => {
  it('lists the open sandboxes with their counts and keys, follows their use, opens and ends one', async () => {
    expect((await api('/activations/list?limit=1', first.key)).status).toBe(200)
    await open('#sandboxes')
    await page.waitForSelector(`#sandboxes tr[data-sandbox="${second.id}"]`)
    const listed = await rows('#sandboxes')
    expect(listed.map((cells) => [cells[0], cells[1], cells[5], cells[6], cells[7]])).toEqual([
      [first.id, 'first', '1', '0', `demo: ${first.key}`],
      [second.id, 'second', '0', '0', `demo: ${second.key}`],
    ])
    // Created, last used, expires: the instants the admin API lists (15 minutes after the last use).
    const [info] = host.sandboxes.list()
    const short = (iso: string) => iso.replace('T', ' ').replace(/\.\d{3}Z$/, 'Z')
    expect(listed[0]!.slice(2, 5)).toEqual([short(info!.createdAt), short(info!.lastUsedAt), short(info!.expiresAt!)])
    await expect(page.locator('#sandboxes-count').textContent()).resolves.toBe('2 open, at most 1000')
    await expect(page.locator('#world').isHidden()).resolves.toBe(true)

    // A request made elsewhere shows in its row within 5 s, as the fault rules' counts do.
    await api('/activations/latest', second.key)
    await page.waitForFunction(
      (id) => document.querySelector(`#sandboxes tr[data-sandbox="${id}"] td:nth-child(6)`)?.textContent === '1',
      second.id,
      { timeout: WAIT.soon },
    )

    await page.getByRole('button', { name: 'New sandbox' }).click()
    await page.waitForSelector('#message:has-text("Opened the sandbox")')
    const opened = (await page.locator('#message').textContent())!.replace('Opened the sandbox ', '')
    expect(host.sandboxes.list().map((s) => s.id)).toEqual([first.id, second.id, opened])
    await page.waitForSelector(`#sandboxes tr[data-sandbox="${opened}"]`)
    expect(host.sandboxes.info(opened).label).toBeNull()

    await page.getByRole('button', { name: `End the sandbox ${opened}` }).click()
    await page.waitForSelector(`#sandboxes tr[data-sandbox="${opened}"]`, { state: 'detached' })
    expect(host.sandboxes.list().map((s) => s.id)).toEqual([first.id, second.id])
    expect(rig.consoleErrors).toEqual([])
  })
})

describe('the inspector of one sandbox', () => {
  it("shows that sandbox's world in every view, keeps it across a reload, and goes back to the host's", async () => {
    // Only the first sandbox: a day later, an activation more, a request; the host: a request of its own.
    await admin('POST', `/sandboxes/${first.id}/clock`, { advance: '1d' })
    const added = await admin('POST', `/sandboxes/${first.id}/activations`, { type: 'giveaway', state: 'running' })
    expect(added.status).toBe(201)
    const addedId: string = added.body.id
    expect((await api('/activations/list?limit=3', first.key)).status).toBe(200)
    expect((await api('/activations/latest', 'demo-key')).status).toBe(200)

    await open('#sandboxes')
    await page.getByRole('link', { name: first.id }).click()
    await page.waitForSelector('#world:not([hidden])')
    expect(new URL(page.url()).hash).toBe(`#sandbox=${first.id}/accounts`)
    await expect(page.locator('#world-name').textContent()).resolves.toBe(`${first.id} (first)`)
    // The accounts: the sandbox's own key; the clock: its own, a day on.
    await page.waitForSelector(`#accounts tr[data-account="demo"] >> text=${first.key}`)
    await expect(page.locator('#clock-now').textContent()).resolves.toBe('2026-06-02 12:00:00Z')

    const ids = await activationIds()
    expect(ids).toHaveLength(51)
    expect(ids).toContain(addedId)
    expect(new URL(page.url()).hash).toBe(`#sandbox=${first.id}/activations`)

    // Its journal: its request, not the host's; a new one comes live.
    await tab('Journal').click()
    await page.waitForSelector('#journal tr')
    expect((await rows('#journal')).map((cells) => [cells[3], cells[4]])).toEqual([
      ['/activations/list?limit=3', first.key],
    ])
    await api('/activations/nope', first.key)
    await api('/activations/nope', 'demo-key')
    await page.waitForFunction(() => document.querySelectorAll('#journal tr').length === 2)
    await page.locator('#journal tr').first().getByRole('button').click()
    await expect(page.locator('#response').textContent()).resolves.toContain('no activation has the id \\"nope\\"')

    // A fault rule added here is the sandbox's alone.
    await tab('Faults').click()
    await page.locator('#fault-form [name=endpoint]').selectOption('latest')
    await page.getByRole('button', { name: 'Add the rule' }).click()
    await page.waitForSelector('#faults tr[data-rule="rule-1"]')
    expect(host.sandboxes.get(first.id).faults.list()).toMatchObject([{ id: 'rule-1', endpoint: 'latest' }])
    expect(host.faults.list()).toEqual([])

    // A reload keeps the world and the view.
    await page.reload()
    await page.waitForSelector('#faults tr[data-rule="rule-1"]')
    await expect(page.locator('#world-name').textContent()).resolves.toBe(`${first.id} (first)`)

    // The way back: the host's world, in the same view.
    await page.getByRole('button', { name: 'Back to the host' }).click()
    await page.waitForURL((url) => url.hash === '#faults')
    await page.waitForSelector('#accounts tr[data-account="demo"] >> text=demo-key', { state: 'attached' })
    await expect(page.locator('#world').isHidden()).resolves.toBe(true)
    await expect(page.locator('#faults tr').count()).resolves.toBe(0)
    await expect(page.locator('#clock-now').textContent()).resolves.toBe('2026-06-01 12:00:00Z')
    const hostIds = await activationIds()
    expect(hostIds).toHaveLength(50)
    expect(hostIds).not.toContain(addedId)
    await tab('Journal').click()
    await page.waitForFunction(() => document.querySelectorAll('#journal tr').length === 2)
    expect((await rows('#journal')).map((cells) => [cells[3], cells[4]])).toEqual([
      ['/activations/nope', 'demo-key'],
      ['/activations/latest', 'demo-key'],
    ])

    // Back across the worlds: the host's activations, its faults, then the sandbox's faults.
    for (const hash of ['#activations', '#faults', `#sandbox=${first.id}/faults`]) {
      await page.goBack()
      await page.waitForURL((url) => url.hash === hash)
    }
    await page.waitForSelector('#world:not([hidden])')
    await page.waitForSelector('#faults tr[data-rule="rule-1"]')
    expect(rig.consoleErrors).toEqual([])
  })

  it('views the other sandbox from the list while one is viewed, each with its own clock', async () => {
    await admin('POST', `/sandboxes/${second.id}/clock`, { set: '2026-07-04T09:30:00Z' })
    await open(`#sandbox=${first.id}/sandboxes`)
    await page.waitForSelector(`#sandboxes tr[data-sandbox="${first.id}"] >> text=(viewed)`)
    await page.getByRole('link', { name: second.id }).click()
    await page.waitForURL((url) => url.hash === `#sandbox=${second.id}/accounts`)
    await page.waitForSelector(`#world-name:has-text("${second.id} (second)")`)
    await page.waitForSelector('#clock-now:has-text("2026-07-04 09:30:00Z")')
    expect(rig.consoleErrors).toEqual([])
  })
})

describe('a sandbox that is gone', () => {
  it('says it was ended when it ends while viewed, and offers the way back', async () => {
    await open(`#sandbox=${second.id}/journal`)
    await page.waitForSelector('#world:not([hidden])')
    await page.waitForSelector('#view-journal', { state: 'visible' })
    expect((await admin('DELETE', `/sandboxes/${second.id}`)).status).toBe(200)
    // Its journal's stream ends with it, and the page, reconnecting within 2 s, hears why.
    await page.waitForSelector(`#world-gone:has-text('Sandbox not found: "${second.id}" was ended')`, {
      timeout: WAIT.soon,
    })
    await expect(page.locator('nav').isHidden()).resolves.toBe(true)
    await expect(page.locator('main').isHidden()).resolves.toBe(true)
    await page.getByRole('button', { name: 'Back to the host' }).click()
    await page.waitForURL((url) => url.hash === '#journal')
    await page.waitForSelector('#view-journal', { state: 'visible' })
    await expect(page.locator('#world').isHidden()).resolves.toBe(true)
    expect(rig.consoleErrors).toEqual([])
  })

  it("shows an ended or expired sandbox's 404 message when its address is opened", async () => {
    await admin('DELETE', `/sandboxes/${first.id}`)
    await open(`#sandbox=${first.id}/activations`)
    await page.waitForSelector('#world-gone:not(:empty)')
    await expect(page.locator('#world-gone').textContent()).resolves.toBe(`Sandbox not found: "${first.id}" was ended`)
    await expect(page.locator('#view-activations').isHidden()).resolves.toBe(true)
    await page.close()

    const brief = await openSandbox({ ttl: '1s', label: 'brief' })
    await new Promise((resolve) => setTimeout(resolve, 1200))
    await open(`#sandbox=${brief.id}/faults`)
    await page.waitForSelector('#world-gone:not(:empty)')
    await expect(page.locator('#world-gone').textContent()).resolves.toBe(
      `Sandbox not found: "${brief.id}" expired: it was not used for 1 s (its ttl)`,
    )
    await expect(page.getByRole('button', { name: 'Back to the host' }).isVisible()).resolves.toBe(true)
    expect(rig.consoleErrors).toEqual([])
  })
})
