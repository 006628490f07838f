import { getResponse } from 'msw'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { buildExample, serveFolder, type BuiltExample } from '../../bench/browser-page.js'
import { createEmulator, type Emulator } from '../../src/index.js'
import { describeInChromium, launchBrowser } from '../support/chromium.js'
import { TEST_MS } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const describe = describeInChromium(import.meta.url)

// The README's Vite example, bundled by Vite from the package's `browser` export, in Debian's chromium:
// the handlers run under msw's setupWorker with a real Service Worker, and every answer the page gets
// is byte-identical to what Node's handlers answer for the same world (same scenario, same frozen clock).
const API = 'https://api.activations.test'
const KEY = { Authorization: 'Api-Key demo-key' }

type Answer = { status: number; type: string | null; body: string }

let example: BuiltExample
let site: Awaited<ReturnType<typeof serveFolder>>
let browser: Browser
let page: Page
let node: Emulator

beforeAll(async () => {
  example = await buildExample()
  site = await serveFolder(example.dir)
  browser = await launchBrowser()
  page = await browser.newPage()
  await page.goto(`${site.url}/`)
  await page.waitForSelector('#activations li')
  node = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00Z' })
})

afterAll(async () => {
  await browser?.close()
  await site?.close()
  example?.remove()
})

/** What the page's fetch gets, through the Service Worker. */
function inPage(path: string, headers: Record<string, string> = KEY): Promise<Answer> {
  return page.evaluate(
    async ([url, headers]) => {
      const response = await fetch(url, { headers })
      return { status: response.status, type: response.headers.get('content-type'), body: await response.text() }
    },
    [`${API}${path}`, headers] as const,
  )
}

/** What Node's handlers answer to the same request. */
async function inNode(path: string, headers: Record<string, string> = KEY): Promise<Answer> {
  const response = await getResponse(node.handlers, new Request(`${API}${path}`, { headers }))
  if (!response) throw new Error(`no handler answered ${path}`)
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() }
}

describe('the handlers under setupWorker in chromium', () => {
  it('render the example page from the emulated API', async () => {
    expect(await page.locator('#status').textContent()).toBe('200: 5 running activations')
    await expect(page.locator('#activations li').count()).resolves.toBe(5)
  })

  it('answer every endpoint with the bytes Node answers for the same world', async () => {
    const first = JSON.parse((await inNode('/activations/list?limit=3')).body) as {
      activations: Array<{ id: string }>
      next: string
    }
    const id = first.activations[0]!.id
    const paths = [
      '/activations/list?limit=3',
      `/activations/list?limit=3&next=${first.next}`,
      '/activations/list?state=running&types[]=trivia&types[]=giveaway',
      `/activations/${id}?limit=50`,
      `/activations/${id}?is_winner=1&limit=5`,
      '/activations/latest?limit=10',
      '/experience/participants?limit=20',
      '/activations/list?limit=101',
      '/activations/no-such-activation',
      '/nowhere',
    ]
    for (const path of paths) {
      const [browser, expected] = [await inPage(path), await inNode(path)]
      expect({ path, ...browser }).toEqual({ path, ...expected })
    }
    // Each status the paths above reach, so that none is compared only as an error.
    const statuses = await Promise.all(paths.map(async (p) => (await inPage(p)).status))
    expect(new Set(statuses)).toEqual(new Set([200, 400, 404]))
  })

  it('answers 401 without a key, as Node does', async () => {
    const answer = await inPage('/activations/list', {})
    expect(answer).toEqual(await inNode('/activations/list', {}))
    expect(answer.status).toBe(401)
  })

  it('records the build of the default world as a performance measure', async () => {
    const ms = await page.evaluate(
      () => performance.getEntriesByName('activation-emulator:build', 'measure')[0]?.duration ?? -1,
    )
    expect(ms).toBeGreaterThan(0)
  })
})
