/**
 * A sandbox opened with a large `data` (a dumped world of tens of megabytes) is parsed and checked in
 * turns: while it is made, the host goes on answering. Asserted as an order and a count (host requests
 * answered, one after the other, between the end of the upload and the sandbox's answer), never a time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runCli, startCli, type CliServer } from '../support/cli.js'
import { TEST_MS } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const NOW = '2026-06-01T12:00:00.000Z'
let dir: string
let dump: Buffer
let cli: CliServer
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'))
  // 12 activations of 4,000 entries each: a dump of about 25 MB.
  const scenario = {
    name: 'large-data',
    description: 'A world large enough that checking its dump takes many turns',
    seed: 3,
    accounts: [
      {
        name: 'large',
        apiKeys: ['large-key'],
        premium: true,
        people: 20000,
        activations: [{ type: 'giveaway', state: 'ended', count: 12, entries: 4000 }],
      },
    ],
  }
  writeFileSync(join(dir, 'large.json'), JSON.stringify(scenario))
  const made = await runCli(['dump', '-s', join(dir, 'large.json'), '--now', NOW, '--out', join(dir, 'dump.json')])
  expect(made.stderr).toBe('')
  dump = readFileSync(join(dir, 'dump.json'))
  cli = await startCli(['-s', 'default', '--now', NOW])
})
afterAll(async () => {
  await cli?.stop('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

/** POSTs `body` to open a sandbox; `uploaded` once its last byte is handed to the connection. */
function openSandbox(body: Buffer): { uploaded: Promise<void>; answer: Promise<{ status: number; body: any }> } {
  let uploaded!: () => void
  const done = new Promise<void>((resolve) => (uploaded = resolve))
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request(`${new URL(cli.url).origin}/__emulator/sandboxes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': body.length },
    })
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (d: string) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end(body, () => uploaded())
  })
  return { uploaded: done, answer }
}

describe("a sandbox's large data", () => {
  it('while the sandbox is made from it, the host answers request after request', async () => {
    expect(dump.length).toBeGreaterThan(15e6)
    const body = Buffer.concat([Buffer.from('{"label":"large","data":'), dump, Buffer.from('}')])
    const { uploaded, answer } = openSandbox(body)
    let made: { status: number; body: any } | undefined
    void answer.then((a) => (made = a))
    await uploaded
    // Host requests, each sent once the one before is answered, until the sandbox's answer is in.
    let answered = 0
    while (made === undefined) {
      const host = await fetch(`${cli.url}/activations/list?limit=1`, {
        headers: { authorization: 'Api-Key demo-key' },
      })
      await host.arrayBuffer()
      expect(host.status).toBe(200)
      if (made === undefined) answered++
    }
    expect(made.status).toBe(201)
    expect(answered).toBeGreaterThanOrEqual(20)
    // And the sandbox serves the world it was given.
    const key = made.body.apiKeys.large[0] as string
    const list = await fetch(`${made.body.baseUrl}/activations/list?limit=100`, {
      headers: { authorization: `Api-Key ${key}` },
    })
    expect(((await list.json()) as { activations: unknown[] }).activations).toHaveLength(12)
    console.log(
      `${answered} host requests answered while a sandbox was made from ${(body.length / 1e6).toFixed(0)} MB of data`,
    )
  })

  it('data that is not JSON: a 400 naming it, from the same turns', async () => {
    const body = Buffer.concat([Buffer.from('{"data":'), dump.subarray(0, dump.length - 100)])
    const { answer } = openSandbox(body)
    const { status, body: error } = await answer
    expect(status).toBe(400)
    expect(error.error).toMatch(/^Malformed body: it must be a JSON object, got invalid JSON \(/)
  })
})
