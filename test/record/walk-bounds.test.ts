/**
 * The walker of `record` bounded by what a walk can hold: a page holds no more items than its limit, a
 * world holds one record of an id (an id seen twice, or an item without one, stops the recording
 * naming it and where it was seen), a list whose pages are not full stops after a few, a filtered list
 * holds no more than the list it filters and a page, and the ids `.` and `..` are asked as themselves.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SHORT_PAGES_ALLOWED } from '../../src/node/record/page-rules.js'
import { RecordedIds } from '../../src/node/record/recorded-ids.js'
import { WORLD_LIMITS } from '../../src/world/scenario.js'
import { recordAccounts } from '../../src/node/record/recorder.js'
import type { RecordOptions } from '../../src/node/record/record-options.js'
import { createRemoteClient, type RemoteClient } from '../../src/node/remote/client.js'
import { listPage, scripted, scriptedWorld, type ScriptedPage } from '../support/scripted-client.js'

const LIMITS = { activations: 1, entries: 1, participants: 1 }

let dir = ''
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'walk-bounds-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const record = (client: RemoteClient, options: Partial<RecordOptions> = {}) =>
  recordAccounts({ client, apiKeys: ['KEY'], limits: LIMITS, checkpoint: join(dir, 'ckpt'), ...options })

/** `count` items of `prefix`1 … `prefix`<count>. */
const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i + 1}` }))

describe('recordAccounts refuses a page holding more items than its limit', () => {
  const world = (entries: number) =>
    scripted(
      scriptedWorld({
        '/activations/list?limit=1': listPage('activations', [{ id: 'a1', type: 'quiz' }]),
        '/activations/list?state=running&limit=1': listPage('activations', []),
        '/activations/a1?limit=3': listPage('entries', ids('e', entries)),
      }),
    )
  it('takes exactly the limit', async () => {
    const recording = await record(world(3), { limits: { ...LIMITS, entries: 3 } })
    expect(Object.keys(recording.accounts[0]!.entries)).toEqual(['a1'])
  })
  it('refuses one past it, naming the page and the counts', async () => {
    await expect(record(world(4), { limits: { ...LIMITS, entries: 3 } })).rejects.toThrow(
      'Failed to record /activations/a1?limit=3 of account 1: it holds 4 entries, more than its limit of 3',
    )
  })
})

describe('recordAccounts fails on an id a world cannot hold, naming it and where it was seen', () => {
  const fails = async (over: Record<string, ScriptedPage>, message: string, options: Partial<RecordOptions> = {}) => {
    await expect(record(scripted(scriptedWorld(over)), { restart: true, ...options })).rejects.toThrow(message)
  }
  const two = {
    '/activations/list?limit=1': listPage('activations', [{ id: 'a1', type: 'quiz' }], 'a2'),
    '/activations/list?limit=1&next=a2': listPage('activations', [{ id: 'a2', type: 'quiz' }]),
    '/activations/list?state=running&limit=1': listPage('activations', []),
  }
  it('an entry in two activations', async () => {
    const over = {
      ...two,
      '/activations/a1?limit=1': listPage('entries', [{ id: 'e1' }]),
      '/activations/a2?limit=1': listPage('entries', [{ id: 'e1' }]),
    }
    const error = (await record(scripted(scriptedWorld(over))).catch((e: unknown) => e)) as Error
    expect(error.message).toMatch(
      /^Failed to record \/activations\/a[12]\?limit=1 of account 1: entry "e1" was seen before, on \/activations\/a[12]\?limit=1 of account 1: a world holds one entry of an id$/,
    )
  })
  it('an entry twice in one activation, on two pages or on one', async () => {
    await fails(
      {
        '/activations/a1?limit=1': listPage('entries', [{ id: 'e1' }], 'x'),
        '/activations/a1?limit=1&next=x': listPage('entries', [{ id: 'e1' }]),
      },
      'Failed to record /activations/a1?limit=1&next=x of account 1: entry "e1" was seen before, on /activations/a1?limit=1 of account 1',
    )
    await fails(
      { '/activations/a1?limit=2': listPage('entries', [{ id: 'e1' }, { id: 'e1' }]) },
      'Failed to record /activations/a1?limit=2 of account 1: entry "e1" was seen before, on this page',
      { limits: { ...LIMITS, entries: 2 } },
    )
  })
  it('an entry or a participant with an empty id, or none', async () => {
    for (const item of [{ id: '' }, {}, { id: 7 }, null]) {
      await fails(
        { '/activations/a1?limit=1': listPage('entries', [item]) },
        'Failed to record /activations/a1?limit=1 of account 1: an entry has no id (item 1 of the page)',
      )
      await fails(
        { '/experience/participants?limit=1': listPage('participants', [item]) },
        'Failed to record /experience/participants?limit=1 of account 1: a participant has no id (item 1 of the page)',
      )
    }
  })
  it('an activation or a participant in two accounts', async () => {
    const both = scripted(scriptedWorld())
    await expect(record(both, { apiKeys: ['KEY', 'OTHER'] })).rejects.toThrow(
      /of account 2: (activation "a1"|participant "p1") was seen before, on \/(activations\/list|experience\/participants)\?limit=1 of account 1/,
    )
  })
})

describe('recordAccounts bounds a list whose next never repeats', () => {
  /** Participants pages p1 … p<count> holding `per` participants each, every one but the last with a next. */
  const pages = (count: number, per: (n: number) => number) => {
    const out: Record<string, ScriptedPage> = {}
    for (let n = 1; n <= count; n++) {
      const path = n === 1 ? '/experience/participants?limit=2' : `/experience/participants?limit=2&next=p${n}`
      out[path] = listPage('participants', ids(`p${n}-`, per(n)), n < count ? `p${n + 1}` : null)
    }
    return out
  }
  const limits = { ...LIMITS, participants: 2 }
  it(`takes ${SHORT_PAGES_ALLOWED} pages before the last holding fewer items than the limit, and any number of full ones`, async () => {
    const over = pages(SHORT_PAGES_ALLOWED + 30, (n) => (n <= SHORT_PAGES_ALLOWED ? n % 2 : 2))
    const recording = await record(scripted(scriptedWorld(over)), { limits })
    expect(recording.accounts[0]!.participants).toHaveLength(SHORT_PAGES_ALLOWED + 30)
  })
  it('refuses one more: a walk of empty pages, each with a new next, ends there', async () => {
    const endless = scripted(scriptedWorld(pages(10_000, () => 0)))
    await expect(record(endless, { limits })).rejects.toThrow(
      `Failed to record /experience/participants?limit=2&next=p${SHORT_PAGES_ALLOWED + 1} of account 1: it is the ${SHORT_PAGES_ALLOWED + 1}th page of the list to hold fewer than its limit of 2 participants and give a next`,
    )
    expect(endless.asked.filter((asked) => asked.includes('participants'))).toHaveLength(SHORT_PAGES_ALLOWED + 1)
  })
  it('refuses a filtered list holding more than the list it filters and a page: full pages of the same entries', async () => {
    const winners = (count: number) => {
      const out: Record<string, ScriptedPage> = {}
      for (let n = 1; n <= count; n++) {
        const path = n === 1 ? '/activations/a1?is_winner=1&limit=1' : `/activations/a1?is_winner=1&limit=1&next=w${n}`
        out[path] = listPage('entries', [{ id: 'e1' }], n < count ? `w${n + 1}` : null)
      }
      return out
    }
    // a1 has one entry: its winners may hold two (one more page, for an upstream that grew meanwhile).
    await record(scripted(scriptedWorld(winners(2))))
    await expect(record(scripted(scriptedWorld(winners(1000))), { restart: true })).rejects.toThrow(
      'Failed to record /activations/a1?is_winner=1&limit=1&next=w3 of account 1: the filtered list holds 3 entries, more than the 1 of the whole list and a page',
    )
  })
})

describe('recordAccounts asks for the activations . and .. as themselves', () => {
  let server: Server | null = null
  afterEach(async () => {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve) ?? resolve(null))
    server = null
  })
  it('percent-encoding their dots, so that the URL is not resolved as "here" and "up"', async () => {
    // An upstream over HTTP that answers by the path it receives, as sent.
    const received: string[] = []
    server = createServer((req, res) => {
      const [path, query = ''] = (req.url ?? '').split('?')
      received.push(path!)
      const body =
        path === '/activations/list' && !query.includes('state=')
          ? listPage('activations', [
              { id: '.', type: 'quiz' },
              { id: '..', type: 'quiz' },
            ])
          : path === '/activations/list'
            ? listPage('activations', [])
            : path === '/activations/%2E'
              ? listPage('entries', [{ id: 'e1' }])
              : path === '/activations/%2E%2E'
                ? listPage('entries', [{ id: 'e2' }])
                : path === '/experience/participants'
                  ? listPage('participants', [])
                  : null
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body ?? { error: `Not found: ${path}` }))
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const client = createRemoteClient({ baseUrl: `http://127.0.0.1:${port}`, rps: Infinity })
    const recording = await record(client, { limits: { ...LIMITS, activations: 2 } })
    expect(received.filter((path) => path.startsWith('/activations/%')).sort()).toEqual([
      '/activations/%2E',
      '/activations/%2E%2E',
    ])
    expect(Object.keys(recording.accounts[0]!.entries)).toEqual(['.', '..'])
  })
})

describe('recordAccounts keeps no page in memory', () => {
  it('reads the recording back from its checkpoint once every list is done', async () => {
    const checkpoint = join(dir, 'ckpt')
    const client = scripted(
      scriptedWorld({
        // Asked once the whole list is in: the participants' page is on disk by then, and is changed there
        // (in place, at the same length).
        '/activations/list?state=ended&limit=1': () => {
          const text = readFileSync(checkpoint, 'utf8').replace('"id":"p1"', '"id":"P1"')
          writeFileSync(checkpoint, text)
          return listPage('activations', [])
        },
        '/activations/list?state=running&limit=1': listPage('activations', []),
        '/activations/list?state=not_started&limit=1': listPage('activations', []),
      }),
    )
    const recording = await record(client, { limits: LIMITS })
    expect(recording.accounts[0]!.participants[0]!.body).toEqual(listPage('participants', [{ id: 'P1' }]))
  })
  it("keeps a page's fields that the spec does not give it by name only", async () => {
    const junk = Array.from({ length: 1000 }, () => ({}))
    const recording = await record(
      scripted(
        scriptedWorld({ '/experience/participants?limit=1': { participants: [{ id: 'p1' }], next: null, junk } }),
      ),
    )
    expect(recording.accounts[0]!.participants[0]!.body).toEqual({
      participants: [{ id: 'p1' }],
      next: null,
      junk: null,
    })
  })
})

describe('a recording holds no more records of a kind than a world holds', () => {
  it(`takes exactly ${WORLD_LIMITS.activations} activations and refuses the next, naming the bound`, () => {
    const seen = new RecordedIds()
    seen.take('activations', ids('a', WORLD_LIMITS.activations), 'page 1', 'Failed to record page 1')
    expect(() => seen.take('activations', [{ id: 'one-more' }], 'page 2', 'Failed to record page 2')).toThrow(
      `Failed to record page 2: the recording holds more than ${WORLD_LIMITS.activations.toLocaleString('en')} activations, more than a world holds`,
    )
  })
})
