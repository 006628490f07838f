/**
 * `record` on the built command line against an upstream whose pages a world cannot be made of: ids
 * that collide, a list that never ends, records of strange shapes. Each stops in one line of ours (exit
 * 1) naming the page and what was wrong, or records what it can (exit 0); never an engine's message.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'

/** An account with the activations a1 and a2 (quizzes), a participant p1, and `over` in place of any page. */
function pagesOf(over: Record<string, unknown>): (path: string) => unknown {
  const entry = (id: string) => ({ id, email: `${id}@example.org`, firstName: 'A', lastName: 'B' })
  const pages: Record<string, unknown> = {
    '/activations/list?limit=2': {
      activations: [
        { id: 'a1', type: 'quiz' },
        { id: 'a2', type: 'quiz' },
      ],
      next: null,
    },
    '/activations/a1?limit=2': { entries: [entry('e1')], next: null },
    '/activations/a2?limit=2': { entries: [entry('e2')], next: null },
    '/experience/participants?limit=2': { participants: [{ id: 'p1', email: 'e1@example.org' }], next: null },
    ...over,
  }
  return (path) =>
    pages[path] ?? (path.startsWith('/activations/list?state=') ? { activations: [], next: null } : undefined)
}

let dir = ''
let server: Server | null = null
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'record-refusals-'))
})
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)))
  server = null
  rmSync(dir, { recursive: true, force: true })
})

/** Serves `page(path)` (a function for pages made on the fly), 404 for undefined; resolves to its URL. */
async function serve(page: (path: string) => unknown): Promise<string> {
  server = createServer((req, res) => {
    const body = page(req.url ?? '/')
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body ?? { error: 'Not found' }))
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const record = (url: string) =>
  runCli([
    'record',
    '--from',
    url,
    '--api-key',
    'KEY',
    '--rps',
    '0',
    '--limits',
    '2,2,2',
    '-q',
    '-o',
    join(dir, 'w.json'),
  ])

const lines = (text: string) => text.split('\n').filter((line) => line !== '')

describe('record (the built command line) stops in one line and exit 1', () => {
  it('on an entry in two activations, naming the id and both pages', async () => {
    const entry = { id: 'e1', email: 'e1@example.org', firstName: 'A', lastName: 'B' }
    const run = await record(await serve(pagesOf({ '/activations/a2?limit=2': { entries: [entry], next: null } })))
    expect(run.code).toBe(1)
    expect(lines(run.stderr)).toHaveLength(1)
    expect(run.stderr).toMatch(
      /^activation-emulator: Failed to record \/activations\/a[12]\?limit=2 of account 1: entry "e1" was seen before, on \/activations\/a[12]\?limit=2 of account 1: a world holds one entry of an id/,
    )
  })

  it('on an entry with an empty id', async () => {
    const run = await record(await serve(pagesOf({ '/activations/a2?limit=2': { entries: [{ id: '' }], next: null } })))
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /^activation-emulator: Failed to record \/activations\/a2\?limit=2 of account 1: an entry has no id \(item 1 of the page\)/,
    )
  })

  it('on a list of empty pages whose next never repeats', async () => {
    let n = 0
    const endless = pagesOf({})
    const run = await record(
      await serve((path) =>
        path.startsWith('/experience/participants') ? { participants: [], next: `n${++n}` } : endless(path),
      ),
    )
    expect(run.code).toBe(1)
    expect(lines(run.stderr)).toHaveLength(1)
    expect(run.stderr).toMatch(
      /^activation-emulator: Failed to record \/experience\/participants\?limit=2&next=n10 of account 1: it is the 11th page/,
    )
    expect(n).toBe(11)
  })
})

describe('record (the built command line) makes a world of records of strange shapes', () => {
  it('an extra that is not an object, a date past any a Date holds: exit 0, no engine message', async () => {
    const run = await record(
      await serve(
        pagesOf({
          '/activations/a1?limit=2': {
            entries: [{ id: 'e1', email: 'e1@example.org', enteredAt: 1e300, firstName: 'A', lastName: 'B' }],
            next: null,
          },
          '/experience/participants?limit=2': {
            participants: [{ id: 'p1', email: 'e1@example.org', extras: [null, 7, { answeredAt: -1e300 }] }],
            next: null,
          },
        }),
      ),
    )
    expect(run.stderr).not.toMatch(/TypeError|RangeError|Cannot read|Invalid time/)
    expect(run.code).toBe(0)
  })
})
