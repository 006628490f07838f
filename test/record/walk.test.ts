import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest'
import { createRemoteClient, type RemoteClientOptions } from '../../src/node/remote/client.js'
import type { CheckpointPage } from '../../src/node/record/checkpoint.js'
import { RecordInterruptedError } from '../../src/node/record/record-interrupted-error.js'
import type { RecordProgress } from '../../src/node/record/record-options.js'
import { recordAccounts } from '../../src/node/record/recorder.js'
import { pagesOf, type RecordedAccount } from '../../src/world/recording.js'
import { startHostileUpstream } from '../support/hostile-upstream.js'
import { BASIC_KEY, expectedAccounts, PREMIUM_KEY, useUpstream } from '../support/upstream.js'
import { spawnOwned } from '../support/processes.js'

// The walker of `record` against the hand-written upstream: every page of both accounts, in order,
// through a 429, a dropped connection and 503s; resumed after a kill or a Ctrl-C without asking any
// page twice.

const LIMITS = { activations: 2, entries: 2, participants: 2 }
const KEYS = [PREMIUM_KEY, BASIC_KEY]
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CHILD = fileURLToPath(new URL('../support/record-child.ts', import.meta.url))

const upstreams = useUpstream('record-')
const serve = upstreams.serve
let dir = ''
beforeEach(() => {
  dir = upstreams.dir()
})

const client = (url: string, options: Partial<RemoteClientOptions> = {}) =>
  createRemoteClient({ baseUrl: url, rps: Infinity, retryDelayMs: 10, ...options })

/** Every page of the accounts as `key path`. */
function pathsOf(accounts: RecordedAccount[]): string[] {
  return accounts.flatMap((account) => pagesOf(account).map((page) => `${account.apiKey} ${page.path}`))
}

/** The pages a checkpoint holds as `key path` (the participants' 403 included). */
function checkpointPages(file: string): string[] {
  const lines = readFileSync(file, 'utf8').split('\n').slice(1)
  return lines.flatMap((line) => {
    try {
      const page = JSON.parse(line) as CheckpointPage
      return [`${KEYS[page.account]} ${page.path}`]
    } catch {
      return []
    }
  })
}

/** Runs a recording in a child process until it has written `pages` pages, then sends it `signal`. */
function recordInChild(
  url: string,
  checkpoint: string,
  pages: number,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', CHILD, url, checkpoint, join(dir, 'child.json'), JSON.stringify(LIMITS), ...KEYS]
    const child = spawnOwned(process.execPath, args, { cwd: ROOT })
    let stdout = ''
    let stderr = ''
    let sent = false
    child.stdout.setEncoding('utf8').on('data', (data: string) => {
      stdout += data
      if (!sent && stdout.includes(`pages ${pages}\n`)) {
        sent = true
        child.kill(signal)
      }
    })
    child.stderr.setEncoding('utf8').on('data', (data: string) => (stderr += data))
    child.on('error', reject)
    child.on('close', (code, closeSignal) => resolve({ code, signal: closeSignal, stdout, stderr }))
  })
}

describe('recordAccounts', () => {
  it('records every page of each account in order, asking each page once', async () => {
    const { url, requests } = await serve()
    const progress: RecordProgress[] = []
    const recording = await recordAccounts({
      client: client(url),
      apiKeys: KEYS,
      limits: LIMITS,
      checkpoint: join(dir, 'ckpt'),
      onProgress: (p) => progress.push(p),
    })
    const expected = expectedAccounts(LIMITS)
    expect(recording.accounts).toEqual(expected)
    expect(JSON.stringify(recording.accounts)).toBe(JSON.stringify(expected))
    expect(recording).toMatchObject({ format: 'activation-emulator/recording@1', from: url, limits: LIMITS })
    expect(Date.parse(recording.serverDate!)).toBeGreaterThan(0)
    const asked = requests.map((r) => `${r.key} ${r.path}`)
    expect(asked.sort()).toEqual([...pathsOf(expected), `${BASIC_KEY} /experience/participants?limit=2`].sort())
    expect(recording.accounts[1]).toMatchObject({ premium: false, participants: [] })
    const last = progress.at(-1)!
    // 11 activations, 24 entries, 7 participants; 9 + 2 activations listed, all done.
    expect(last).toMatchObject({ pages: asked.length, records: 42, activations: { listed: 11, done: 11 } })
  })

  it('finishes despite a 429, a dropped connection and two 503s, and keeps unknown and odd fields', async () => {
    const options = { unknownFields: true, oddField: true }
    const expected = expectedAccounts(LIMITS, options)
    const dropOn = expected[0]!.activations[1]!.path
    const fail503On = expected[0]!.entries['triv-1']![1]!.path
    const { url, count } = await serve({ ...options, rateLimitAt: [3], dropOn, fail503On })
    const remote = client(url)
    const recording = await recordAccounts({
      client: remote,
      apiKeys: KEYS,
      limits: LIMITS,
      checkpoint: join(dir, 'c'),
    })
    expect(recording.accounts).toEqual(expected)
    const entry = (recording.accounts[0]!.entries['giv-1']![0]!.body as any).entries[0]
    expect(entry).toMatchObject({ loyaltyTier: 'gold', prize: { sku: 'SKU-1' } })
    expect(typeof (recording.accounts[0]!.activations[0]!.body as any).activations[0].createdAt).toBe('string')
    expect(count(dropOn)).toBe(2)
    expect(count(fail503On)).toBe(3)
    expect(remote.stats()).toMatchObject({ retries: 3, waits: 1 })
  })

  it('walks the lists of different activations side by side, as many at once as the client allows', async () => {
    const { url, maxInFlight } = await serve({ delayMs: 20 })
    const warnings: string[] = []
    const onWarning = (warning: Error) => warnings.push(warning.message)
    process.on('warning', onWarning)
    onTestFinished(() => void process.off('warning', onWarning))
    const options = { apiKeys: KEYS, limits: LIMITS, signal: new AbortController().signal }
    await recordAccounts({ client: client(url, { concurrency: 3 }), ...options, checkpoint: join(dir, 'a') })
    expect(maxInFlight()).toBe(3)
    const recording = await recordAccounts({
      client: client(url, { concurrency: 1 }),
      ...options,
      checkpoint: join(dir, 'b'),
    })
    expect(recording.accounts).toEqual(expectedAccounts(LIMITS))
    // Every chain of the first account (15) queued on one signal at once: no warning of a listener leak.
    await recordAccounts({
      ...options,
      client: client(url, { concurrency: 1, signal: new AbortController().signal }),
      limits: { ...LIMITS, activations: 100 },
      checkpoint: join(dir, 'c'),
    })
    expect(warnings).toEqual([])
  })

  it('resumes after being killed halfway, asking no page twice, and records what a clean run records', async () => {
    const { url, requests } = await serve({ delayMs: 20 })
    const checkpoint = join(dir, 'ckpt')
    const killed = await recordInChild(url, checkpoint, 12, 'SIGKILL')
    expect(killed.signal).toBe('SIGKILL')
    // A kill in the middle of a write leaves half a line: it is ignored, and cut off before appending.
    appendFileSync(checkpoint, '{"account":0,"chain":"entr')
    const before = checkpointPages(checkpoint)
    expect(before.length).toBeGreaterThanOrEqual(12)
    const askedBefore = requests.length

    const recording = await recordAccounts({
      client: client(url),
      apiKeys: KEYS,
      limits: LIMITS,
      checkpoint,
      resume: true,
    })
    expect(recording.accounts).toEqual(expectedAccounts(LIMITS))
    const after = requests.slice(askedBefore).map((r) => `${r.key} ${r.path}`)
    expect(new Set(after).size).toBe(after.length)
    expect(after.filter((page) => before.includes(page))).toEqual([])
    const all = [...pathsOf(expectedAccounts(LIMITS)), `${BASIC_KEY} /experience/participants?limit=2`]
    expect([...before, ...after].sort()).toEqual(all.sort())
    // The checkpoint now holds every page once, each on a whole line.
    expect(checkpointPages(checkpoint).sort()).toEqual(all.sort())
  })

  it('stops on Ctrl-C (SIGINT) leaving a checkpoint that resumes', async () => {
    const { url, requests } = await serve({ delayMs: 20 })
    const checkpoint = join(dir, 'ckpt')
    const stopped = await recordInChild(url, checkpoint, 5, 'SIGINT')
    expect(stopped.stderr).toBe('')
    expect(stopped.code).toBe(130)
    expect(stopped.stdout).toMatch(new RegExp(`The recording stopped; its checkpoint ${checkpoint} holds \\d+ pages`))
    const before = checkpointPages(checkpoint)
    const askedBefore = requests.length
    const recording = await recordAccounts({
      client: client(url),
      apiKeys: KEYS,
      limits: LIMITS,
      checkpoint,
      resume: true,
    })
    expect(recording.accounts).toEqual(expectedAccounts(LIMITS))
    const after = requests.slice(askedBefore).map((r) => `${r.key} ${r.path}`)
    expect(after.filter((page) => before.includes(page))).toEqual([])
  })

  it('rejects with a RecordInterruptedError when its signal aborts', async () => {
    const { url } = await serve({ delayMs: 20 })
    const controller = new AbortController()
    const checkpoint = join(dir, 'ckpt')
    const run = recordAccounts({
      client: client(url),
      apiKeys: KEYS,
      limits: LIMITS,
      checkpoint,
      signal: controller.signal,
      onProgress: (p) => p.pages === 3 && controller.abort(),
    })
    await expect(run).rejects.toBeInstanceOf(RecordInterruptedError)
    expect(checkpointPages(checkpoint)).toHaveLength(3)
  })

  it('stops at once on its signal, even in the middle of a 429 wait', async () => {
    // A 429 that asks to wait a minute: stopping must not wait for it.
    const { url } = await serve({ rateLimitAt: [2, 3, 4, 5], retryAfterSeconds: 60 })
    const controller = new AbortController()
    const remote = createRemoteClient({
      baseUrl: url,
      rps: Infinity,
      onEvent: (e) => e.type === 'wait' && controller.abort(),
    })
    const start = Date.now()
    const run = recordAccounts({
      client: remote,
      apiKeys: KEYS,
      limits: LIMITS,
      checkpoint: join(dir, 'c'),
      signal: controller.signal,
    })
    await expect(run).rejects.toBeInstanceOf(RecordInterruptedError)
    expect(Date.now() - start).toBeLessThan(30_000)
  })

  it('refuses to resume a checkpoint made for another URL, other keys or other limits', async () => {
    const { url } = await serve()
    const checkpoint = join(dir, 'ckpt')
    await recordAccounts({ client: client(url), apiKeys: [BASIC_KEY], limits: LIMITS, checkpoint })
    const again = (baseUrl: string, apiKeys: string[], limits = LIMITS) =>
      recordAccounts({ client: client(baseUrl), apiKeys, limits, checkpoint, resume: true })
    await expect(again(`${url}/v2`, [BASIC_KEY])).rejects.toThrow(
      `The checkpoint ${checkpoint} was made recording ${url}, not ${url}/v2: add --restart (it deletes the checkpoint) to record afresh`,
    )
    await expect(again(url, [PREMIUM_KEY])).rejects.toThrow(
      `The checkpoint ${checkpoint} was made with other API keys (or in another order): add --restart (it deletes the checkpoint) to record afresh`,
    )
    await expect(again(url, [BASIC_KEY], { ...LIMITS, entries: 3 })).rejects.toThrow(
      `The checkpoint ${checkpoint} was made at other limits (activations 2, entries 2, participants 2), not activations 2, entries 3, participants 2`,
    )
    expect(readFileSync(checkpoint, 'utf8')).not.toContain(BASIC_KEY)
    await expect(recordAccounts({ client: client(url), apiKeys: [BASIC_KEY], checkpoint })).rejects.toThrow(
      `The checkpoint ${checkpoint} already exists: add --resume to go on with it, or --restart to delete it and record afresh`,
    )
  })

  it('resumes a finished checkpoint without asking anything', async () => {
    const { url, requests } = await serve()
    const checkpoint = join(dir, 'ckpt')
    const first = await recordAccounts({ client: client(url), apiKeys: KEYS, limits: LIMITS, checkpoint })
    const asked = requests.length
    const second = await recordAccounts({
      client: client(url),
      apiKeys: KEYS,
      limits: LIMITS,
      checkpoint,
      resume: true,
    })
    expect(requests.length).toBe(asked)
    expect(second.accounts).toEqual(first.accounts)
    expect(second.serverDate).toBe(first.serverDate)
    expect(second.startedAt).toBe(first.startedAt)
  })

  it('counts, on resume, the activations the checkpoint already holds whole as done (issue 35, point 18)', async () => {
    const { url } = await serve()
    const checkpoint = join(dir, 'ckpt')
    await recordAccounts({ client: client(url), apiKeys: [PREMIUM_KEY], limits: LIMITS, checkpoint })
    // Keep the first two thirds of the pages, as a run killed there would.
    const lines = readFileSync(checkpoint, 'utf8').split('\n')
    writeFileSync(checkpoint, `${lines.slice(0, Math.floor(lines.length * 0.66)).join('\n')}\n`)
    const reports: RecordProgress[] = []
    await recordAccounts({
      client: client(url, { concurrency: 1 }),
      apiKeys: [PREMIUM_KEY],
      limits: LIMITS,
      checkpoint,
      resume: true,
      onProgress: (p) => reports.push(p),
    })
    // The first report (the one a progress line shows first) counts every activation the checkpoint
    // finished, not just the first of them to be seen again.
    // (A count of one there is the bug: each finished activation reported in turn, the first alone shown.)
    expect(reports[0]!.activations.done).toBeGreaterThan(1)
    expect(reports.at(-1)!.activations).toEqual({ listed: 9, done: 9 })
  })

  it('percent-encodes `next`: upstream ids with +, & and % page on (issue 36)', async () => {
    const ids = ['x+1', 'y&limit=1', 'z%41', 'w%zz', 'plain']
    const upstream = await startHostileUpstream({ ids })
    onTestFinished(() => upstream.close())
    const recording = await recordAccounts({
      client: client(upstream.url),
      apiKeys: [upstream.key],
      limits: { activations: 1, entries: 1, participants: 1 },
      checkpoint: join(dir, 'ckpt'),
    })
    const paths = upstream.requests.map((r) => r.path)
    expect(paths).toContain('/activations/list?limit=1&next=y%26limit%3D1')
    expect(paths).toContain('/activations/list?limit=1&next=z%2541')
    expect(paths).toContain('/activations/list?limit=1&next=w%25zz')
    expect(paths).toContain('/activations/x%2B1?limit=1&next=x%2B1-e')
    const listed = recording.accounts[0]!.activations.flatMap(
      (page) => (page.body as { activations: Array<{ id: string }> }).activations,
    )
    expect(listed.map((a) => a.id)).toEqual(ids)
  })

  it('starts afresh on resume when the checkpoint holds no whole line (killed as it began)', async () => {
    const { url } = await serve()
    const checkpoint = join(dir, 'ckpt')
    writeFileSync(checkpoint, '{"format":"activation-emulator/rec')
    const recording = await recordAccounts({
      client: client(url),
      apiKeys: KEYS,
      limits: LIMITS,
      checkpoint,
      resume: true,
    })
    expect(recording.accounts).toEqual(expectedAccounts(LIMITS))
    expect(JSON.parse(readFileSync(checkpoint, 'utf8').split('\n')[0]!)).toMatchObject({
      format: 'activation-emulator/record-checkpoint@1',
      from: url,
      limits: LIMITS,
    })
  })

  it('fails naming the request when the upstream answers an error', async () => {
    const { url } = await serve()
    await expect(
      recordAccounts({ client: client(url), apiKeys: ['wrong-key'], limits: LIMITS, checkpoint: join(dir, 'c') }),
    ).rejects.toThrow(
      'Failed to record /activations/list?limit=2 of account 1: the upstream answered 401 {"error":"Invalid API key"}',
    )
  })

  it('refuses limits beyond the spec’s bounds', async () => {
    await expect(
      recordAccounts({
        client: client('http://127.0.0.1:9'),
        apiKeys: ['k'],
        limits: { ...LIMITS, entries: 1001 },
        checkpoint: join(dir, 'c'),
      }),
    ).rejects.toThrow('The entries limit must be a whole number from 1 to 1000, got 1001')
  })
})
