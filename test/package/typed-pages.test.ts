import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { pages, type FetchLike } from '../../src/contract.js'
import { useEmulator } from '../../src/index.js'
import { emailsOf, queryAfter, runningIds, twoParticipantPages, type Api } from '../fixtures/typed-pages.js'
import { startCli, type CliServer } from '../support/cli.js'
import { strictErrors } from '../support/strict-compile.js'
import { TEST_MS } from '../support/timeouts.js'

// test/fixtures/typed-pages.ts, a client typed by activation-emulator/contract alone: compiled strict,
// then run with the same code in-process (msw serves the emulator to the global fetch) and over HTTP
// (the built command line's server), which must answer it the same.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CLIENT = `${ROOT}test/fixtures/typed-pages.ts`
const PATHS = `${ROOT}src/contract/paths.ts`
const NOW = '2026-06-01T12:00:00.000Z'

describe('a client of pages() and paths, compiled strict', () => {
  it('compiles with no cast, passing a page’s next back as the query', { timeout: TEST_MS.long }, () => {
    const source = readFileSync(CLIENT, 'utf8').replace(/^\s*\/\/.*$/gm, '')
    expect(source).not.toMatch(/\bas\s+(?!const\b)|\bany\b|<[A-Z]\w*>\s*\w|!\./)
    expect(strictErrors(CLIENT)).toEqual([])
  })

  it(
    'does not compile when next is typed as openapi-typescript generates it (string, no null): TS2322',
    { timeout: TEST_MS.long },
    () => {
      const paths = readFileSync(PATHS, 'utf8')
      expect(paths).toContain('next?: string | null')
      const errors = strictErrors(CLIENT, { [PATHS]: paths.replace('next?: string | null', 'next?: string') })
      expect(errors.join('\n')).toMatch(
        /^test\/fixtures\/typed-pages\.ts:\d+: Type 'string \| null' is not assignable to type 'string \| undefined'/m,
      )
    },
  )
})

/** The global fetch, counting the pages it is asked for. */
function counting(): { fetch: FetchLike; urls: string[] } {
  const urls: string[] = []
  return { urls, fetch: (url, init) => (urls.push(url), fetch(url, init)) }
}

/** What the client reads of a world, through any fetch: the figures the two modes must agree on. */
async function readAll(api: Api) {
  const list = await runningIds(fetch, api)
  const first = list.ids[0]!
  const whole = (await (
    await fetch(`${api.baseUrl}/activations/${first}?limit=1000`, {
      headers: { Authorization: `Api-Key ${api.apiKey}` },
    })
  ).json()) as { entries: Array<{ email: string }>; next: string | null }
  expect(whole.next).toBeNull()
  const walked = counting()
  const emails = await emailsOf(walked.fetch, api, first, 7)
  return { list, whole: whole.entries.map((e) => e.email), emails, requests: walked.urls.length }
}

let inProcess: Awaited<ReturnType<typeof readAll>> | undefined

describe('pages() in-process, with msw serving the emulator', () => {
  const api = useEmulator(
    { scenario: 'default', now: NOW, onUnhandledRequest: 'error' },
    { beforeAll, afterEach, afterAll },
  )

  it('yields every page in order, one request a page, until next is null', async () => {
    const read = await readAll({ baseUrl: api.baseUrl, apiKey: api.apiKey })
    expect(read.whole.length).toBeGreaterThan(7)
    expect(read.emails).toEqual(read.whole)
    expect(read.requests).toBe(Math.ceil(read.whole.length / 7))
    expect(read.list.pages).toBe(Math.ceil(read.list.ids.length / 2))
    inProcess = read
  })

  it('stops asking when the loop stops, and a next from a page gives the page after it', async () => {
    const own = { baseUrl: api.baseUrl, apiKey: api.apiKey }
    const [first, second] = await twoParticipantPages(fetch, own)
    expect(first).toHaveLength(3)
    const from = counting()
    const walk = pages(from.fetch, '/experience/participants', { ...own, params: { query: { limit: 3 } } })
    const { value: page } = await walk.next()
    await walk.return()
    if (!page) throw new Error('no first page')
    expect(page.participants.map((p) => p.email)).toEqual(first)
    expect(from.urls).toEqual([`${api.baseUrl}/experience/participants?limit=3`])
    const resumed = counting()
    const query = queryAfter(page, { limit: 3 })
    for await (const after of pages(resumed.fetch, '/experience/participants', { ...own, params: { query } })) {
      expect(after.participants.map((p) => p.email)).toEqual(second)
      break
    }
    expect(resumed.urls).toEqual([`${api.baseUrl}/experience/participants?limit=3&next=${page.next}`])
  })

  it('throws on an error answer, with its status and message', async () => {
    const walk = pages(fetch, '/activations/{id}', {
      baseUrl: api.baseUrl,
      apiKey: api.apiKey,
      params: { path: { id: 'nope' } },
    })
    await expect(walk.next()).rejects.toThrow(/^GET https:\/\/\S+\/activations\/nope answered 404: /)
  })
})

describe('pages() over HTTP, against the built command line', () => {
  let server: CliServer | undefined
  beforeAll(async () => {
    server = await startCli(['--scenario', 'default', '--now', NOW, '--quiet'])
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
  })

  it('reads what it reads in-process, with the same code and any fetch', async () => {
    const read = await readAll({ baseUrl: server!.url, apiKey: 'demo-key' })
    expect(read.emails).toEqual(read.whole)
    expect(read).toEqual(inProcess)
  })
})
