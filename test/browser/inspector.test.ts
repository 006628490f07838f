import type { Browser, Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import { createEmulator, serve, type Emulator, type RunningServer } from '../../src/index.js'
import { WAIT } from '../support/timeouts.js'
import { describeInChromium } from '../support/chromium.js'
import { inspectorInChromium } from '../support/inspector-page.js'

const describe = describeInChromium(import.meta.url)

// The inspector page at /__emulator/, in Debian's chromium, against a running server: each action is
// a person's (a click, a key), and each outcome is read both in the page and from the emulator.
const NOW = '2026-06-01T12:00:00.000Z'
const KEY = { Authorization: 'Api-Key demo-key' }

const rig = inspectorInChromium(NOW)
let emulator: Emulator
let server: RunningServer
let browser: Browser
let page: Page
beforeAll(() => void ({ emulator, server, browser } = rig))

/** A fresh page on a fresh world, at a view. */
const open = async (view = 'accounts'): Promise<Page> => (page = await rig.open(`#${view}`))

const api = (path: string) => fetch(`${server.url}${path}`, { headers: KEY })
const tab = (name: string) => page.getByRole('tab', { name })
/** The journal's row of a request, by its number. */
const journalRow = (seq: number) => page.locator(`#journal tr[data-seq="${seq}"]`)
/** The number of the last request journaled (numbers go on across resets). */
const lastSeq = () => emulator.journal.entries().at(-1)!.seq

describe('the inspector', () => {
  it('switches premium off through the admin API, and the next participants request shows as 403 in the journal', async () => {
    await open()
    const premium = page.getByLabel('premium for demo')
    await expect(premium.isChecked()).resolves.toBe(true)
    await premium.focus()
    await page.keyboard.press('Space')
    await page.waitForSelector('#message:has-text("premium off")')
    expect(emulator.accounts[0]!.premium).toBe(false)

    expect((await api('/experience/participants?limit=5')).status).toBe(403)
    await tab('Journal').click()
    const seq = lastSeq()
    const row = journalRow(seq)
    await row.waitFor()
    await expect(row.locator('td.status').textContent()).resolves.toBe('403')
    await expect(row.textContent()).resolves.toContain('/experience/participants?limit=5')
    // A click on the request shows its response: the API's own {"error"} body.
    await row.getByRole('button', { name: String(seq) }).click()
    const shown = JSON.parse((await page.locator('#response').textContent())!)
    expect(shown).toEqual({
      error: 'The participants list is a premium feature, and it is not enabled for this account',
    })
  })

  it('sets and clears a rate limit, and shows the requests left in the window', async () => {
    await open()
    await page.getByLabel('rate limit of demo: requests').fill('3')
    await page.getByLabel('rate limit of demo: window in seconds').fill('60')
    await page.locator('tr[data-account="demo"]').getByRole('button', { name: 'Set' }).click()
    await page.waitForSelector('#message:has-text("rate limit 3 per 60 s")')
    expect(emulator.accounts[0]!.rateLimit).toEqual({ limit: 3, windowSeconds: 60 })
    await api('/activations/list')
    await page.waitForSelector('td.left:has-text("demo-key: 2 left")')
    await page.locator('tr[data-account="demo"]').getByRole('button', { name: 'Clear' }).click()
    await page.waitForSelector('td.left:has-text("no rate limit")')
    expect(emulator.accounts[0]!.rateLimit).toBeNull()
  })

  it('moves the clock to the next start, and an activation changes from not_started to running', async () => {
    await open('activations')
    await page.locator('#activations-form [name=limit]').fill('100')
    await page.locator('#activations-form').getByRole('button', { name: 'Show' }).click()
    await page.waitForFunction(() => document.querySelectorAll('#activations tr').length > 20)
    const states = () =>
      page.$$eval('#activations tr', (rows) =>
        Object.fromEntries(rows.map((r) => [r.getAttribute('data-id'), r.querySelector('td.state')!.textContent])),
      )
    const before = await states()
    expect(Object.keys(before)).toHaveLength(50)

    await page.getByRole('button', { name: 'Next start' }).click()
    await page.waitForSelector('#message:has-text("set to the next start")')
    const after = await states()
    const started = Object.keys(before).filter((id) => before[id] === 'not_started' && after[id] === 'running')
    expect(started.length).toBeGreaterThan(0)
    // The clock moved through the admin API to exactly that activation's start.
    const activation = emulator.db.index.activations.get(started[0]!)!
    expect(new Date(emulator.clock.now()).toISOString()).toBe(activation.startTime.iso)
    await expect(page.locator('#clock-now').textContent()).resolves.toBe(
      activation.startTime.iso.replace('T', ' ').replace(/\.\d{3}Z$/, 'Z'),
    )

    await page.getByRole('button', { name: '+1 d' }).click()
    await page.waitForSelector('#message:has-text("advanced 1d")')
    expect(emulator.clock.now()).toBe(Date.parse(activation.startTime.iso) + 86_400_000)
    await page.getByRole('button', { name: 'Run' }).click()
    await page.waitForSelector('#clock-mode:has-text("running")')
    expect(emulator.clock.frozen).toBe(false)
  })

  it('adds a fault rule, sees it fire in the journal, and removes it', async () => {
    await open('faults')
    const form = page.locator('#fault-form')
    await form.locator('[name=endpoint]').selectOption('list')
    await form.locator('[name=status]').fill('503')
    await form.locator('[name=error]').fill('Down for a test')
    await form.locator('[name=times]').fill('1')
    await form.getByRole('button', { name: 'Add the rule' }).click()
    await page.waitForSelector('#faults tr[data-rule="rule-1"]')
    expect(emulator.faults.list()).toMatchObject([{ id: 'rule-1', endpoint: 'list', status: 503, times: 1 }])

    const answer = await api('/activations/list?limit=2')
    expect(answer.status).toBe(503)
    await tab('Journal').click()
    const row = journalRow(lastSeq())
    await row.waitFor()
    await expect(row.locator('td').last().textContent()).resolves.toBe('rule-1')
    await expect(row.locator('td.status span').getAttribute('class')).resolves.toBe('s5')

    await tab('Faults').click()
    await page.waitForSelector('#faults tr[data-rule="rule-1"] >> text=(spent)')
    await page.getByRole('button', { name: 'Remove the rule rule-1' }).click()
    await page.waitForSelector('#faults tr[data-rule="rule-1"]', { state: 'detached' })
    expect(emulator.faults.list()).toEqual([])
  })

  it('lists a rule with a path and an answer of its own, and its effect', async () => {
    await emulator.reset()
    emulator.faults.add({ path: '/activations/*', answer: { status: 502, body: '<html>bad gateway</html>' } })
    page = await rig.open('#faults', { reset: false })
    const row = page.locator('#faults tr[data-rule="rule-1"]')
    await row.waitFor()
    await expect(row.textContent()).resolves.toContain('any, /activations/*answer 502 (24 characters)')
    emulator.faults.clear()
  })

  it("says the admin API's error when a rule is wrong, and adds nothing", async () => {
    await open('faults')
    await page.locator('#fault-form [name=effect]').selectOption('delay')
    await page.locator('#fault-form [name=delay]').fill('soon')
    await page.getByRole('button', { name: 'Add the rule' }).click()
    await page.waitForSelector('#message.error')
    await expect(page.locator('#message').textContent()).resolves.toMatch(
      /^POST \/__emulator\/faults: 400 .*delay.*"soon"/,
    )
    expect(emulator.faults.list()).toEqual([])
  })

  it("pages through an activation's entries with the API's filters, showing the curl line of each page", async () => {
    await open('activations')
    await page.locator('#activations tr').first().waitFor()
    // An activation of the page with winners (the admin API's view: nothing journaled).
    let id = ''
    for (const shown of await page.$$eval('#activations tr', (rows) => rows.map((r) => r.getAttribute('data-id')!))) {
      const winners = await (
        await fetch(`${server.adminUrl}/view/demo/activations/${shown}?is_winner=1&limit=1`)
      ).json()
      if (winners.entries.length > 0) {
        id = shown
        break
      }
    }
    const first = page.locator(`#activations tr[data-id="${id}"]`)
    await first.getByRole('button', { name: id }).click()
    await page.waitForSelector('#entries tr')
    await expect(tab('Entries').getAttribute('aria-selected')).resolves.toBe('true')

    const ids = () => page.$$eval('#entries tr[data-id]', (rows) => rows.map((r) => r.getAttribute('data-id')))
    const firstPage = await (await api(`/activations/${id}?limit=20`)).json()
    expect(await ids()).toEqual(firstPage.entries.map((e: { id: string }) => e.id))
    await page.getByRole('button', { name: 'Next page' }).click()
    await page.waitForSelector('#entries-page:has-text("page 2")')
    const secondPage = await (await api(`/activations/${id}?limit=20&next=${firstPage.next}`)).json()
    expect(await ids()).toEqual(secondPage.entries.map((e: { id: string }) => e.id))
    await expect(page.locator('#entries-curl').textContent()).resolves.toBe(
      `curl -g -H 'Authorization: Api-Key demo-key' '${server.url}/activations/${id}?limit=20&next=${firstPage.next}'`,
    )

    // A filter of the API's own, from the first page again.
    await page.locator('#entries-form [name=is_winner]').selectOption('1')
    await page.locator('#entries-form').getByRole('button', { name: 'Show' }).click()
    await page.waitForSelector('#entries-page:has-text("page 1")')
    const winners = await (await api(`/activations/${id}?is_winner=1&limit=20`)).json()
    expect(winners.entries.length).toBeGreaterThan(0)
    expect(await ids()).toEqual(winners.entries.map((e: { id: string }) => e.id))
    // Browsing asks the admin API's view: nothing of it reaches the journal.
    expect(emulator.journal.entries().map((r) => r.query['next']?.[0] ?? r.query['is_winner']?.[0] ?? '')).toEqual([
      '',
      firstPage.next,
      '1',
    ])
  })

  it('shows the participants, and a 403 when premium is off', async () => {
    await open('participants')
    await page.locator('#participants-form').getByRole('button', { name: 'Show' }).click()
    await page.waitForSelector('#participants tr')
    expect(await page.locator('#participants tr').count()).toBe(20)
    emulator.set({ premium: false })
    await page.locator('#participants-form').getByRole('button', { name: 'Show' }).click()
    await page.waitForSelector('#participants td.s4')
    await expect(page.locator('#participants td').textContent()).resolves.toMatch(/^403: The participants list/)
  })

  it('is used with the keyboard: arrow keys move between the views', async () => {
    await open()
    await tab('Accounts').focus()
    await page.keyboard.press('ArrowRight')
    await expect(page.locator('#view-activations').isVisible()).resolves.toBe(true)
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Activations')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    await expect(page.locator('#view-overview').isVisible()).resolves.toBe(true)
    await page.keyboard.press('ArrowLeft')
    await expect(page.locator('#view-report').isVisible()).resolves.toBe(true)
    await page.keyboard.press('ArrowLeft')
    await expect(page.locator('#view-sandboxes').isVisible()).resolves.toBe(true)
  })

  it.each([
    [1280, 800],
    [375, 700],
  ])('fits a %i px wide window without the page scrolling sideways', async (width, height) => {
    await open('journal')
    await api('/activations/list?limit=1&types[]=trivia&types[]=giveaway&state=running')
    await journalRow(lastSeq()).waitFor()
    for (const view of ['accounts', 'activations', 'journal', 'faults', 'sandboxes']) {
      await page.setViewportSize({ width, height })
      await tab(view[0]!.toUpperCase() + view.slice(1)).click()
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect({ view, overflow }).toEqual({ view, overflow: 0 })
    }
  })
})

describe('the inspector tells the truth', () => {
  /** The fault table's rows as their cells' text, the Remove button's cell left out. */
  const faultRows = () =>
    page.$$eval('#faults tr', (rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].slice(0, -1).map((td) => td.textContent)),
    )

  async function addRule(fields: Record<string, string>): Promise<void> {
    const form = page.locator('#fault-form')
    const before = await page.locator('#faults tr').count()
    for (const [name, value] of Object.entries(fields)) {
      const field = form.locator(`[name=${name}]`)
      if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(value)
      else await field.fill(value)
    }
    await form.getByRole('button', { name: 'Add the rule' }).click()
    await page.waitForFunction((n) => document.querySelectorAll('#faults tr').length === n, before + 1)
  }

  it('shows delay, drop and status rules as they are, and their counts move while the view is open', async () => {
    await open('faults')
    await addRule({ endpoint: 'list', effect: 'delay', delay: '10', times: '', error: '' })
    await addRule({ endpoint: 'latest', effect: 'drop', drop: 'connection', times: '1' })
    await addRule({ endpoint: 'participants', effect: 'status', status: '503', error: 'Down', times: '2' })
    expect(await faultRows()).toEqual([
      ['rule-1', 'list', 'delay 10 ms', 'every time', '0', '0'],
      ['rule-2', 'latest', 'drop connection', 'once', '0', '0'],
      ['rule-3', 'participants', 'status 503 "Down"', '2 times', '0', '0'],
    ])
    await expect(page.locator('#faults').textContent()).resolves.not.toMatch(/null|undefined/)

    // Requests from elsewhere; the page is left alone, and its table follows.
    expect((await api('/activations/list?limit=1')).status).toBe(200)
    await expect(api('/activations/latest')).rejects.toThrow()
    expect((await api('/experience/participants?limit=1')).status).toBe(503)
    const moved = [
      ['rule-1', 'list', 'delay 10 ms', 'every time', '1', '1'],
      ['rule-2', 'latest', 'drop connection', 'once (spent)', '1', '1'],
      ['rule-3', 'participants', 'status 503 "Down"', '2 times', '1', '1'],
    ]
    await page.waitForFunction(
      (want) =>
        JSON.stringify(
          [...document.querySelectorAll('#faults tr')].map((r) =>
            [...r.querySelectorAll('td')].slice(0, -1).map((td) => td.textContent),
          ),
        ) === want,
      JSON.stringify(moved),
      { timeout: WAIT.soon },
    )
    expect(emulator.faults.list().map((r) => [r.matched, r.fired])).toEqual([
      [1, 1],
      [1, 1],
      [1, 1],
    ])
    expect(rig.consoleErrors).toEqual([])
  })

  it('shows a rule added elsewhere (a test, curl) within seconds, with no request made', async () => {
    await open('faults')
    await expect(page.locator('#faults tr').count()).resolves.toBe(0)
    emulator.faults.add({
      id: 'from-a-test',
      endpoint: 'participants',
      delay: { min: 100, max: 300 },
      probability: 0.5,
    })
    await page.waitForSelector('#faults tr[data-rule="from-a-test"]', { timeout: WAIT.soon })
    expect((await faultRows())[0]).toEqual(['from-a-test', 'participants', 'delay 100 to 300 ms', 'p 0.5', '0', '0'])
  })

  it("keeps what a person is typing in an account's row while requests update what is left", async () => {
    await open()
    emulator.set({ rateLimit: { limit: 5, windowSeconds: 60 } })
    await api('/activations/list')
    await page.waitForSelector('td.left:has-text("demo-key: 4 left")')
    const limit = page.getByLabel('rate limit of demo: requests')
    await limit.fill('12')
    await api('/activations/list')
    await page.waitForSelector('td.left:has-text("demo-key: 3 left")')
    await expect(limit.inputValue()).resolves.toBe('12')
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe(
      'rate limit of demo: requests',
    )
  })

  it('follows the address: a view by its hash, and Back to the view before', async () => {
    await open()
    await tab('Faults').click()
    await tab('Journal').click()
    expect(new URL(page.url()).hash).toBe('#journal')
    await page.goBack()
    await page.waitForSelector('#view-faults', { state: 'visible', timeout: WAIT.soon })
    await expect(tab('Faults').getAttribute('aria-selected')).resolves.toBe('true')
    await expect(page.locator('#view-journal').isHidden()).resolves.toBe(true)
    await page.goBack()
    await page.waitForSelector('#view-accounts', { state: 'visible', timeout: WAIT.soon })
    await page.goForward()
    await page.waitForSelector('#view-faults', { state: 'visible', timeout: WAIT.soon })
    // A link or a hand-typed hash.
    await page.evaluate(() => (location.hash = '#participants'))
    await page.waitForSelector('#view-participants', { state: 'visible', timeout: WAIT.soon })
    await expect(tab('Participants').getAttribute('aria-selected')).resolves.toBe('true')
    await expect(page.locator('#view-faults').isHidden()).resolves.toBe(true)
    expect(rig.consoleErrors).toEqual([])
  })

  it("says nothing stale: the status line goes with its view, and the entries' caption with its activation", async () => {
    await open('entries')
    const [activation] = emulator.db.index.activations.values()
    const form = page.locator('#entries-form')
    await form.locator('[name=id]').fill(activation!.id)
    await form.getByRole('button', { name: 'Show' }).click()
    await page.waitForSelector(`#entries-activation:has-text("${activation!.id}")`)
    await form.locator('[name=id]').fill('nope')
    await form.getByRole('button', { name: 'Show' }).click()
    await page.waitForSelector('#entries td.s4')
    await expect(page.locator('#entries td').textContent()).resolves.toMatch(/^404: Activation not found/)
    await expect(page.locator('#entries-activation').textContent()).resolves.toBe('')

    // A status line about the world shown goes when another activation is shown...
    await page.getByRole('button', { name: 'Reset' }).click()
    await page.waitForSelector('#message:has-text("Reset:")')
    await form.locator('[name=id]').fill(activation!.id)
    await form.getByRole('button', { name: 'Show' }).click()
    await page.waitForSelector(`#entries-activation:has-text("${activation!.id}")`)
    await expect(page.locator('#message').textContent()).resolves.toBe('')
    // ...and when the view changes.
    await page.getByRole('button', { name: 'Reset' }).click()
    await page.waitForSelector('#message:has-text("Reset:")')
    await tab('Accounts').click()
    await page.waitForSelector('#view-accounts', { state: 'visible', timeout: WAIT.soon })
    await expect(page.locator('#message').textContent()).resolves.toBe('')
    expect(rig.consoleErrors).toEqual([])
  })

  it('shows the journal as it is after the page was away: a reset it missed, then the new requests', async () => {
    await emulator.reset()
    // A server of its own, stopped and started again on its port while the journal is reset.
    let away = await serve(emulator, { port: 0 })
    const port = Number(new URL(away.url).port)
    try {
      page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await page.goto(`${away.adminUrl}/#journal`)
      await fetch(`${away.url}/activations/list?limit=1`, { headers: KEY })
      const before = lastSeq()
      await journalRow(before).waitFor()
      await away.close()
      await emulator.reset()
      await api('/activations/latest')
      const after = lastSeq()
      away = await serve(emulator, { port })
      // The page reconnects within 2 s, and shows the journal as it is: the new request, not the old.
      await journalRow(after).waitFor({ timeout: WAIT.soon })
      await expect(page.locator('#journal tr').count()).resolves.toBe(1)
    } finally {
      await away.close()
    }
  })

  it("prints no console error for the API's ordinary 4xx answers: a 404 activation, a 403 without premium, a 400 filter, a wrong rule", async () => {
    await open('entries')
    await page.locator('#entries-form [name=id]').fill('nope')
    await page.locator('#entries-form').getByRole('button', { name: 'Show' }).click()
    await page.waitForSelector('#entries td.s4')

    emulator.set({ premium: false })
    await tab('Participants').click()
    await page.waitForSelector('#participants td.s4')
    await expect(page.locator('#participants td').textContent()).resolves.toMatch(/^403: The participants list/)

    await tab('Activations').click()
    await page.locator('#activations-form [name=start_date]').fill('yesterday')
    await page.locator('#activations-form').getByRole('button', { name: 'Show' }).click()
    await page.waitForSelector('#activations td.s4')
    await expect(page.locator('#activations td').textContent()).resolves.toMatch(/^400: start_date/)

    await tab('Faults').click()
    await page.locator('#fault-form [name=effect]').selectOption('delay')
    await page.locator('#fault-form [name=delay]').fill('soon')
    await page.getByRole('button', { name: 'Add the rule' }).click()
    await page.waitForSelector('#message.error')
    expect(emulator.journal.entries()).toEqual([])
    expect(rig.consoleErrors).toEqual([])
  })
})

describe('the inspector with an admin token', () => {
  it('asks for the token once, and then shows the accounts; no console error for the 401', async () => {
    const locked = await createEmulator({ scenario: 'empty', now: NOW, adminToken: 'secret' })
    const served = await serve(locked, { port: 0 })
    try {
      page = await browser.newPage()
      const errors: string[] = []
      page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())))
      const prompts: string[] = []
      page.on('dialog', (dialog) => {
        prompts.push(dialog.message())
        void dialog.accept('secret')
      })
      await page.goto(`${served.adminUrl}/#accounts`)
      await page.waitForSelector('#accounts tr[data-account="empty"]', { timeout: WAIT.soon })
      expect(prompts).toEqual(['This emulator has an admin token (--admin-token). Token:'])
      expect(errors).toEqual([])
    } finally {
      await served.close()
    }
  })
})

describe('the inspector with --no-admin', () => {
  it('is gone with the admin API', async () => {
    const closed = await serve(emulator, { port: 0, admin: false })
    try {
      const response = await fetch(`${closed.url}/__emulator/`)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ error: 'Not found: no endpoint at /__emulator/' })
    } finally {
      await closed.close()
    }
  })
})
