/**
 * The report card of a client, as users get it: `emulator.report()` after a client walked the API
 * through msw, the handle's `report()`, and `GET /__emulator/report` from the built command line with
 * its defaults, in each of its formats. The rules themselves are held by test/report-card.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expectReportPassed, type Emulator } from '../../src/index.js'
import { startCli, type CliServer } from '../support/cli.js'
import { useMswServed } from '../support/msw-served.js'

const NOW = '2026-06-01T12:00:00.000Z'

/** A client that walks a list to its end, following `next`, `limit` items a page. */
async function walk(base: string, path: string, key: string, limit: number): Promise<number> {
  let pages = 0
  let next: string | null = null
  do {
    const url: string = `${base}${path}?limit=${limit}${next === null ? '' : `&next=${encodeURIComponent(next)}`}`
    const body = (await (await fetch(url, { headers: { authorization: `Api-Key ${key}` } })).json()) as {
      next: string | null
    }
    next = body.next
    pages++
  } while (next !== null)
  return pages
}

describe('emulator.report(), in-process', () => {
  const served = useMswServed({ scenario: 'default', now: NOW }, { admin: true })
  let emulator: Emulator
  beforeAll(() => void (emulator = served()))
  afterEach(() => emulator.reset())

  it('passes a client that walks the activations once, and names the single page it met', async () => {
    const key = emulator.accounts[0]!.apiKeys[0]!
    const pages = await walk(emulator.baseUrl, '/activations/list', key, 100)
    const card = emulator.report()
    expect(card.passed).toBe(true)
    expect(card.requests.count).toBe(pages)
    expect(card.edgeCases.find((c) => c.edgeCase === 'single-page')!.seen).toBe(pages === 1)
    expect(() => expectReportPassed(card)).not.toThrow()
    expect(await emulator.handle.report()).toEqual(JSON.parse(JSON.stringify(card)))
  })

  it('fails a client that asks a page twice and one without a key, naming the requests', async () => {
    const key = emulator.accounts[0]!.apiKeys[0]!
    const page = (await (
      await fetch(`${emulator.baseUrl}/activations/list?limit=5`, { headers: { authorization: `Api-Key ${key}` } })
    ).json()) as {
      next: string
    }
    for (let i = 0; i < 2; i++) {
      await fetch(`${emulator.baseUrl}/activations/list?limit=5&next=${page.next}`, {
        headers: { authorization: `Api-Key ${key}` },
      })
    }
    await fetch(`${emulator.baseUrl}/activations/list`)
    const card = emulator.report()
    const broken = card.rules.filter((r) => !r.passed)
    expect(broken.map((r) => r.rule)).toEqual(['key-on-every-request', 'every-page-once', 'walks-to-the-end'])
    // The journal's numbers go on after a reset: the first request of this test is `first`.
    const first = card.requests.first!
    expect(broken[1]!.findings[0]!.requests).toEqual([first + 1, first + 2])
    expect(card.edgeCases.find((c) => c.edgeCase === '401')!.requests).toEqual([first + 3])
    expect(() => expectReportPassed(card)).toThrow(/broke 3 of 10:\n- key-on-every-request/)
  })

  it('a last page exactly full: the journal keeps how many items each page held', async () => {
    const key = emulator.accounts[0]!.apiKeys[0]!
    const all = (await (
      await fetch(`${emulator.baseUrl}/activations/list?limit=100`, { headers: { authorization: `Api-Key ${key}` } })
    ).json()) as {
      activations: unknown[]
    }
    const total = all.activations.length
    await fetch(`${emulator.baseUrl}/activations/list?limit=${total}`, { headers: { authorization: `Api-Key ${key}` } })
    await fetch(`${emulator.baseUrl}/activations/list?limit=${total + 1}`, {
      headers: { authorization: `Api-Key ${key}` },
    })
    expect(emulator.journal.entries().map((e) => e.items)).toEqual([total, total, total])
    const card = emulator.report()
    expect(card.edgeCases.find((c) => c.edgeCase === 'last-page-full')!.requests).toEqual([card.requests.first! + 1])
  })

  it('a state that changed during a walk over a moving clock', async () => {
    const key = emulator.accounts[0]!.apiKeys[0]!
    const list = (await (
      await fetch(`${emulator.baseUrl}/activations/list?limit=1`, { headers: { authorization: `Api-Key ${key}` } })
    ).json()) as {
      next: string
    }
    // Thirty days on, some activation of the account has started or ended.
    emulator.clock.advance('30d')
    await fetch(`${emulator.baseUrl}/activations/list?limit=1&next=${list.next}`, {
      headers: { authorization: `Api-Key ${key}` },
    })
    const card = emulator.report()
    const first = card.requests.first!
    expect(card.edgeCases.find((c) => c.edgeCase === 'state-change-during-walk')!.requests).toEqual([first, first + 1])
  })
})

describe('GET /__emulator/report, from the command line', () => {
  let cli: CliServer
  beforeAll(async () => {
    cli = await startCli(['--scenario', 'default', '--now', NOW])
  })
  afterAll(async () => {
    await cli?.stop()
  })

  it('answers the card in JSON, JUnit XML and Markdown, and refuses a bad parameter naming it', async () => {
    const base = cli.url
    const admin = `${new URL(base).origin}/__emulator`
    await walk(base, '/activations/list', 'demo-key', 10)
    await fetch(`${base}/activations/list`)
    const json = await fetch(`${admin}/report`)
    expect(json.headers.get('content-type')).toBe('application/json')
    const card = (await json.json()) as { passed: boolean; rules: Array<{ rule: string; passed: boolean }> }
    expect(card.rules.filter((r) => !r.passed).map((r) => r.rule)).toEqual(['key-on-every-request'])
    const xml = await fetch(`${admin}/report?format=junit`)
    expect(xml.headers.get('content-type')).toBe('application/xml; charset=utf-8')
    expect(await xml.text()).toMatch(/<testsuites name="activation-emulator client report" tests="21" failures="1" /)
    const markdown = await (await fetch(`${admin}/report?format=markdown&key=demo-key`)).text()
    expect(markdown).toMatch(/^## Client report card\n\nEvery rule kept, over \d+ requests/)
    const bad = await fetch(`${admin}/report?format=html`)
    expect([bad.status, await bad.json()]).toEqual([
      400,
      { error: 'format must be json, junit or markdown, got "html"' },
    ])
    const zero = await fetch(`${admin}/report?concurrency=0`)
    expect([zero.status, await zero.json()]).toEqual([
      400,
      { error: 'concurrency must be a whole number from 1 to 10000, got 0' },
    ])
    const unknown = await fetch(`${admin}/report?verbose=1`)
    expect(unknown.status).toBe(400)
  })
})
