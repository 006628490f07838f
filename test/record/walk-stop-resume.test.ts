/**
 * The walker of `record` against a scripted client (no server), where it stops, resumes and counts:
 * a failure or Ctrl-C stops every chain and every request in flight, a resumed checkpoint is checked
 * page by page and counted as it stands, and the progress is told after every page with the rate of
 * this run. Found missing by mutation testing (npm run test:mutation).
 */
import { getEventListeners } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CHECKPOINT_FORMAT, hashKeys, type CheckpointPage } from '../../src/node/record/checkpoint.js'
import type { RemoteClient } from '../../src/node/remote/client.js'
import { RecordInterruptedError } from '../../src/node/record/record-interrupted-error.js'
import type { RecordOptions, RecordProgress } from '../../src/node/record/record-options.js'
import { recordAccounts } from '../../src/node/record/recorder.js'
import { listPage, scripted, scriptedWorld, type ScriptedPage } from '../support/scripted-client.js'

const LIMITS = { activations: 1, entries: 1, participants: 1 }
/** The limits of threeActivations, whose three activations are listed on one page. */
const THREE = { ...LIMITS, activations: 3 }

let dir = ''
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'walk-stop-'))
})
afterEach(() => {
  vi.restoreAllMocks()
  rmSync(dir, { recursive: true, force: true })
})

const checkpoint = () => join(dir, 'ckpt')
const record = (client: RemoteClient, options: Partial<RecordOptions> = {}) =>
  recordAccounts({ client, apiKeys: ['KEY'], limits: LIMITS, checkpoint: checkpoint(), ...options })

/** The participants as `count` pages at limit 1: p1 … p<count>. */
function participantPages(count: number): Record<string, ScriptedPage> {
  const pages: Record<string, ScriptedPage> = {}
  for (let n = 1; n <= count; n++) {
    const path = n === 1 ? '/experience/participants?limit=1' : `/experience/participants?limit=1&next=p${n}`
    pages[path] = listPage('participants', [{ id: `p${n}` }], n < count ? `p${n + 1}` : null)
  }
  return pages
}

/** The page lines of a checkpoint of account `KEY` at limit 1, as `record` writes them. */
const line = (chain: CheckpointPage['chain'], path: string, body: unknown, over: Partial<CheckpointPage> = {}) =>
  ({ account: 0, chain, path, status: 200, body, ...over }) as CheckpointPage

/** Writes a checkpoint of `KEY` at `limits` holding `pages`. */
function writeCheckpoint(pages: CheckpointPage[], limits = LIMITS): void {
  const header = {
    format: CHECKPOINT_FORMAT,
    from: 'http://upstream.test',
    keys: hashKeys(['KEY']),
    limits,
    startedAt: '2026-06-01T11:00:00.000Z',
  }
  writeFileSync(checkpoint(), [header, ...pages].map((page) => `${JSON.stringify(page)}\n`).join(''))
}

/** A checkpoint of an upstream with a1 (trivia), a2 (quiz) and a3 (scavenger), whole but for `missing`. */
function threeActivations(missing: string[] = []): CheckpointPage[] {
  const activations = [
    { id: 'a1', type: 'trivia' },
    { id: 'a2', type: 'quiz' },
    { id: 'a3', type: 'scavenger' },
  ]
  const lines = [
    line('activations', '/activations/list?limit=3', listPage('activations', activations), {
      date: '2026-06-01T10:00:00.000Z',
    }),
    ...['not_started', 'running', 'ended'].map((state) =>
      line('states', `/activations/list?state=${state}&limit=3`, listPage('activations', []), { id: state }),
    ),
    line('entries', '/activations/a1?limit=1', listPage('entries', [{ id: 'e1' }]), { id: 'a1' }),
    line('completed', '/activations/a1?is_completed=1&limit=1', listPage('entries', []), { id: 'a1' }),
    line('winners', '/activations/a1?is_winner=1&limit=1', listPage('entries', []), { id: 'a1' }),
    line('entries', '/activations/a2?limit=1', listPage('entries', [{ id: 'e2' }]), { id: 'a2' }),
    line('entries', '/activations/a3?limit=1', listPage('entries', [{ id: 'e3' }]), { id: 'a3' }),
    line('completed', '/activations/a3?is_completed=1&limit=1', listPage('entries', []), { id: 'a3' }),
    line('participants', '/experience/participants?limit=1', listPage('participants', [{ id: 'p1' }])),
  ]
  return lines.filter((page) => !missing.includes(page.path))
}

/** An upstream answering every page of threeActivations. */
const threeUpstream = () =>
  Object.fromEntries(threeActivations().map((page) => [page.path, page.body])) as Record<string, ScriptedPage>

describe('recordAccounts stops', () => {
  it('asking anything once a list fails: a chain of twenty pages is not walked to its end', async () => {
    const client = scripted(
      scriptedWorld({ ...participantPages(20), '/activations/a1?limit=1': { status: 500, text: '{"error":"down"}' } }),
    )
    await expect(record(client)).rejects.toThrow('Failed to record /activations/a1?limit=1 of account 1')
    expect(client.asked).not.toContain('KEY /experience/participants?limit=1&next=p20')
  })

  it('the requests in flight on a failure, and fails with the first error, not the abort it caused', async () => {
    const held = (signal?: AbortSignal) =>
      new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('the wait was aborted'))))
    const client = scripted(
      scriptedWorld({
        '/experience/participants?limit=1': held,
        '/activations/a1?limit=1': { status: 500, text: '{"error":"down"}' },
      }),
    )
    await expect(record(client)).rejects.toThrow('/activations/a1?limit=1 of account 1: the upstream answered 500')
  })

  it('on a signal already aborted: nothing asked, no checkpoint, an interruption of 0 pages', async () => {
    const client = scripted(scriptedWorld())
    const error = await record(client, { signal: AbortSignal.abort() }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RecordInterruptedError)
    expect(error).toMatchObject({ name: 'RecordInterruptedError', pages: 0 })
    expect((error as Error).message).toMatch(/no checkpoint is kept/)
    expect(client.asked).toEqual([])
    expect(existsSync(checkpoint())).toBe(false)
  })

  it('on its signal in the middle of a list: the page answered is kept, its next is not asked, no activation is done', async () => {
    const controller = new AbortController()
    const client = scripted(
      scriptedWorld({
        '/activations/list?limit=1': listPage('activations', [{ id: 'a1', type: 'quiz' }]),
        '/activations/a1?limit=1': () => {
          controller.abort()
          return listPage('entries', [{ id: 'e1' }], 'e2')
        },
        '/activations/a1?limit=1&next=e2': listPage('entries', [{ id: 'e2' }]),
      }),
    )
    const progress: RecordProgress[] = []
    const error = await record(client, { signal: controller.signal, onProgress: (p) => progress.push(p) }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(RecordInterruptedError)
    const { pages } = error as RecordInterruptedError
    expect(error).toMatchObject({ name: 'RecordInterruptedError', checkpoint: checkpoint() })
    expect((error as Error).message).toContain(`${checkpoint()} holds ${pages} pages`)
    // The activations, the participants and a1's first page of entries: each state's list, asked once the
    // whole list is in, is stopped with the rest.
    expect(pages).toBe(3)
    expect(client.asked).not.toContain('KEY /activations/a1?limit=1&next=e2')
    expect(progress.map((p) => p.activations.done)).not.toContain(1)
    expect(existsSync(checkpoint())).toBe(true)
  })

  it('closing its checkpoint: no file left open', async () => {
    const open = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : 0)
    const before = open()
    await record(scripted(scriptedWorld()))
    await expect(record(scripted({}), { restart: true })).rejects.toThrow('answered 404')
    expect(open()).toBe(before)
  })

  it("leaving no listener on the caller's signal", async () => {
    const controller = new AbortController()
    await record(scripted(scriptedWorld()), { signal: controller.signal })
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })
})

describe('recordAccounts refuses', () => {
  it("a 403 on any list but the participants' first page", async () => {
    const forbidden = { status: 403, text: '{"error":"Forbidden"}' }
    await expect(record(scripted(scriptedWorld({ '/activations/a1?limit=1': forbidden })))).rejects.toThrow(
      'Failed to record /activations/a1?limit=1 of account 1: the upstream answered 403',
    )
    const second = { ...participantPages(2), '/experience/participants?limit=1&next=p2': forbidden }
    await expect(record(scripted(scriptedWorld(second)), { restart: true })).rejects.toThrow(
      'Failed to record /experience/participants?limit=1&next=p2 of account 1: the upstream answered 403',
    )
  })

  it("an error's body beyond 200 characters, cut in the message", async () => {
    const body = `{"error":"${'x'.repeat(500)}"}`
    const failing = scripted({ '/activations/list?limit=1': { status: 500, text: body } })
    const error = (await record(failing).catch((e: unknown) => e)) as Error
    expect(error.message).toContain(body.slice(0, 200))
    expect(error.message).not.toContain(body.slice(0, 201))
  })
})

describe('recordAccounts counts', () => {
  it('an activation listed on two pages as a collision: it fails naming the id and both pages, and walks its lists no further', async () => {
    const client = scripted(
      scriptedWorld({
        '/activations/list?limit=1': listPage('activations', [{ id: 'a1', type: 'trivia' }], 'n2'),
        '/activations/list?limit=1&next=n2': listPage('activations', [{ id: 'a1', type: 'trivia' }]),
      }),
    )
    await expect(record(client)).rejects.toThrow(
      'Failed to record /activations/list?limit=1&next=n2 of account 1: activation "a1" was seen before, on /activations/list?limit=1 of account 1',
    )
  })

  it("and tells its progress after every page (the participants' 403 too) and every activation done", async () => {
    const client = scripted(threeUpstream())
    const forbidden = scripted({
      ...threeUpstream(),
      '/experience/participants?limit=1': { status: 403, text: '{"error":"Premium"}' },
    })
    for (const upstream of [client, forbidden]) {
      const progress: RecordProgress[] = []
      await record(upstream, { limits: THREE, onProgress: (p) => progress.push(p), restart: true })
      const pages = progress.at(-1)!.pages
      expect(pages).toBe(11)
      expect([...new Set(progress.map((p) => p.pages))]).toEqual(Array.from({ length: pages }, (_, i) => i + 1))
      expect([...new Set(progress.map((p) => p.activations.done))]).toEqual([0, 1, 2, 3])
    }
  })

  it('its rate as the records of this run over its seconds, 0 while no time has passed', async () => {
    let now = 1_000_000
    vi.spyOn(Date, 'now').mockImplementation(() => now)
    const upstream = threeUpstream()
    const ticking = scripted(
      Object.fromEntries(Object.entries(upstream).map(([path, page]) => [path, () => ((now += 1000), page)])),
    )
    writeCheckpoint(threeActivations(['/activations/a2?limit=1', '/activations/a3?limit=1']), THREE)
    const progress: RecordProgress[] = []
    await record(ticking, { limits: THREE, resume: true, onProgress: (p) => progress.push(p) })
    // Two pages asked in two seconds, one entry each; the checkpoint's five records are not this run's.
    expect(progress.at(-1)).toMatchObject({ records: 7, rate: 1 })
    const still: RecordProgress[] = []
    await record(scripted(upstream), { limits: THREE, restart: true, onProgress: (p) => still.push(p) })
    expect(still.map((p) => p.rate)).toEqual(still.map(() => 0))
  })
})

describe('recordAccounts resumed', () => {
  it('counts as done only the activations whose every list the checkpoint holds whole', async () => {
    // a1 (trivia) lacks its winners, a3 (scavenger) its completed entries, a2 (quiz) the second page of its entries.
    const pages = threeActivations(['/activations/a1?is_winner=1&limit=1', '/activations/a3?is_completed=1&limit=1'])
    pages.find((page) => page.path === '/activations/a2?limit=1')!.body = listPage('entries', [{ id: 'e2' }], 'e2b')
    writeCheckpoint(pages, THREE)
    const client = scripted({ ...threeUpstream(), '/activations/a2?limit=1&next=e2b': listPage('entries', []) })
    const progress: RecordProgress[] = []
    await record(client, { limits: THREE, resume: true, onProgress: (p) => progress.push(p) })
    expect(progress[0]!.activations).toEqual({ listed: 3, done: 0 })
    expect(progress.at(-1)!.activations).toEqual({ listed: 3, done: 3 })
    expect(client.asked.sort()).toEqual([
      'KEY /activations/a1?is_winner=1&limit=1',
      'KEY /activations/a2?limit=1&next=e2b',
      'KEY /activations/a3?is_completed=1&limit=1',
    ])
  })

  it("tells its progress when the checkpoint is whole, without asking anything, and keeps the first run's server date", async () => {
    writeCheckpoint(threeActivations(), THREE)
    const progress: RecordProgress[] = []
    const client = scripted({})
    const recording = await record(client, { limits: THREE, resume: true, onProgress: (p) => progress.push(p) })
    expect(client.asked).toEqual([])
    expect(progress.at(-1)).toEqual({
      pages: 11,
      records: 7,
      rate: 0,
      activations: { listed: 3, done: 3 },
      account: 1,
      accounts: 1,
    })
    expect(recording.serverDate).toBe('2026-06-01T10:00:00.000Z')
    // Without any activation, the end is the only news.
    const none = threeActivations().filter(
      (page) => page.chain !== 'entries' && page.chain !== 'completed' && page.chain !== 'winners',
    )
    ;(none[0]!.body as { activations: unknown[] }).activations = []
    writeCheckpoint(none, THREE)
    const told: RecordProgress[] = []
    await record(client, { limits: THREE, resume: true, onProgress: (p) => told.push(p) })
    expect(told).toEqual([
      { pages: 5, records: 1, rate: 0, activations: { listed: 0, done: 0 }, account: 1, accounts: 1 },
    ])
    writeCheckpoint(threeActivations(['/activations/a2?limit=1']), THREE)
    const resumed = await record(scripted(threeUpstream()), { limits: THREE, resume: true })
    expect(resumed.serverDate).toBe('2026-06-01T10:00:00.000Z')
  })

  it('refuses a page of an account it has no key for, or out of its list’s order', async () => {
    const pages = threeActivations()
    const refused = async (lines: CheckpointPage[], message: string) => {
      writeCheckpoint(lines, THREE)
      await expect(record(scripted(threeUpstream()), { limits: THREE, resume: true })).rejects.toThrow(
        `Failed to read the checkpoint ${checkpoint()}: ${message}`,
      )
    }
    await refused([...pages, { ...pages[1]!, account: 1 }], 'a page of account 1')
    const second = line('entries', '/activations/a1?limit=1&next=e9', listPage('entries', []), { id: 'a1' })
    await refused([...pages, second], 'it holds /activations/a1?limit=1&next=e9 where no more page was due')
    const early = line('entries', '/activations/a2?limit=1&next=x', listPage('entries', []), { id: 'a2' })
    await refused([pages[0]!, early], 'it holds /activations/a2?limit=1&next=x where /activations/a2?limit=1 was due')
  })

  it('refuses a next the checkpoint already holds', async () => {
    writeCheckpoint([line('activations', '/activations/list?limit=1', listPage('activations', [], 'x'))])
    const client = scripted({ '/activations/list?limit=1&next=x': listPage('activations', [], 'x') })
    await expect(record(client, { resume: true })).rejects.toThrow(
      'Failed to record /activations/list?limit=1&next=x of account 1: its next x was given before',
    )
  })

  it("takes the server's date from the first page's answer, not a later one's", async () => {
    const dates = (n: number) => new Date(Date.UTC(2026, 5, 1, 12, 0, n)).toUTCString()
    const recording = await record(scripted(scriptedWorld(), dates))
    expect(recording.serverDate).toBe('2026-06-01T12:00:00.000Z')
  })

  it('without a Date, or with one that is not a date: no server date, and no failure', async () => {
    for (const date of [null, 'not a date']) {
      const recording = await record(scripted(scriptedWorld(), date), { restart: true })
      expect(recording.serverDate).toBeNull()
    }
  })
})
