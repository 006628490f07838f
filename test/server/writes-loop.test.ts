import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS } from '../support/timeouts.js'

// Adds, resets and a sandbox's end on `busy`, on the built command line with its defaults: an add of
// the most entries one call takes is made in turns (a small page asked meanwhile waits a small part
// of it), and the reset or the sandbox's end that undoes it costs a small part of what the add cost.

vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const NOW = '2026-06-01T12:00:00.000Z'
const AUTH = { authorization: 'Api-Key busy-key' }
const JSON_BODY = { 'content-type': 'application/json' }
/** The most entries one add takes (src/world/add-data.ts). */
const MAX_ADDED = 10_000
/** A reset, or a sandbox's end, may cost at most this part of the add it undoes (it used to cost about half). */
const UNDO_PART = 1 / 10

/** A small page asked during an add may wait at most this part of the add (it used to wait for all of it). */
const WAIT_PART = 1 / 4

let cli: CliServer
let admin: string
let giveaway: string
beforeAll(async () => {
  cli = await startCli(['--scenario', 'busy', '--now', NOW])
  admin = `${new URL(cli.url).origin}/__emulator`
  const running = await fetch(`${cli.url}/activations/list?state=running&types[]=giveaway&limit=1`, { headers: AUTH })
  giveaway = ((await running.json()) as { activations: { id: string }[] }).activations[0]!.id
})
afterAll(() => cli?.stop('SIGKILL'))

/** Milliseconds a request took to be answered whole, and its status. */
async function timed(url: string, init: RequestInit): Promise<{ ms: number; status: number; text: string }> {
  const start = performance.now()
  const response = await fetch(url, init)
  const text = await response.text()
  return { ms: performance.now() - start, status: response.status, text }
}

/**
 * Adds MAX_ADDED entries through `adminUrl` while small pages of the host are asked one after another:
 * how long the add took, and the longest a small page waited (from the one before it).
 */
async function addWhileReading(adminUrl: string): Promise<{ ms: number; worstWait: number }> {
  let done = false
  const add = timed(`${adminUrl}/activations/${giveaway}/entries`, {
    method: 'POST',
    headers: JSON_BODY,
    body: JSON.stringify({ count: MAX_ADDED }),
  }).finally(() => (done = true))
  let worstWait = 0
  while (!done) {
    const small = await timed(`${cli.url}/activations/list?limit=1`, { headers: AUTH })
    expect(small.status).toBe(200)
    worstWait = Math.max(worstWait, small.ms)
  }
  const { ms, status, text } = await add
  expect(status, text).toBe(201)
  expect((JSON.parse(text) as { entries: string[] }).entries).toHaveLength(MAX_ADDED)
  return { ms, worstWait }
}

describe(`${MAX_ADDED} entries added on busy, from the command line`, () => {
  it('to a sandbox: a small page of the host waits a small part of the add; ending the sandbox costs a small part of it', async () => {
    const opened = await timed(`${admin}/sandboxes`, { method: 'POST', headers: JSON_BODY, body: '{}' })
    expect(opened.status, opened.text).toBe(201)
    const sandboxAdmin = `${admin}/sandboxes/${(JSON.parse(opened.text) as { id: string }).id}`
    const add = await addWhileReading(sandboxAdmin)
    expect(add.worstWait, 'the longest a small page waited during the add').toBeLessThan(add.ms * WAIT_PART)
    const ended = await timed(sandboxAdmin, { method: 'DELETE' })
    expect(ended.status, ended.text).toBe(200)
    expect(ended.ms).toBeLessThan(add.ms * UNDO_PART)
    expect((await fetch(`${cli.url}/activations/list?limit=1`, { headers: AUTH })).status).toBe(200)
  })

  it('to the host: a small page waits a small part of it, a reset after it costs a small part of it, and gives back the world as created', async () => {
    const fresh = JSON.parse((await timed(`${admin}/state`, {})).text) as { counts: object }
    const add = await addWhileReading(admin)
    expect(add.worstWait, 'the longest a small page waited during the add').toBeLessThan(add.ms * WAIT_PART)
    const reset = await timed(`${admin}/reset`, { method: 'POST' })
    expect(reset.status, reset.text).toBe(200)
    expect(reset.ms).toBeLessThan(add.ms * UNDO_PART)
    expect((JSON.parse(reset.text) as { counts: object }).counts).toEqual(fresh.counts)
  })
})
