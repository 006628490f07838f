/**
 * `GET /__emulator/dump` is made as it is read: the same bytes as `activation-emulator dump` writes,
 * in-process and over HTTP (gzipped or not), while the server answers other requests, and a reader
 * that stops holds a bounded amount of the server's memory, not the dump.
 */
import { readFileSync } from 'node:fs'
import { get, type IncomingMessage } from 'node:http'
import { gunzipSync } from 'node:zlib'
import { getResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { runCli, startCli, type CliServer } from '../support/cli.js'
import { WAIT } from '../support/timeouts.js'

const NOW = '2026-06-01T12:00:00.000Z'

/** A GET of `path` whose answer is handed over as it starts (headers in, body unread). */
function open(url: string, path: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = get(new URL(path, url), { headers, agent: false }, resolve)
    req.on('error', reject)
    req.setTimeout(WAIT.soon, () => req.destroy(new Error(`No answer to ${path} within ${WAIT.soon} ms`)))
  })
}

async function bytesOf(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of res) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

describe('the dump of a small world', () => {
  let cli: CliServer
  let written: string
  beforeAll(async () => {
    cli = await startCli(['-s', 'default', '--now', NOW])
    const run = await runCli(['dump', '-s', 'default', '--now', NOW])
    expect(run.code).toBe(0)
    written = run.stdout
  })
  afterAll(() => cli?.stop())

  it('over HTTP is the bytes the command line writes, chunked, plain or gzipped', async () => {
    const plain = await open(cli.url, '/__emulator/dump')
    expect([plain.statusCode, plain.headers['content-type'], plain.headers['transfer-encoding']]).toEqual([
      200,
      'application/json',
      'chunked',
    ])
    expect((await bytesOf(plain)).toString('utf8')).toBe(written)
    const zipped = await open(cli.url, '/__emulator/dump', { 'accept-encoding': 'gzip' })
    expect([zipped.headers['content-encoding'], zipped.headers['vary']]).toEqual(['gzip', 'Accept-Encoding'])
    expect(gunzipSync(await bytesOf(zipped)).toString('utf8')).toBe(written)
  })

  it('in-process is the same bytes as the whole of emulator.dump()', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW })
    const whole = [...emulator.dump()].join('')
    expect(whole).toBe(written)
    const response = await getResponse(
      emulator.adminHandlers,
      new Request(`${new URL(emulator.baseUrl).origin}/__emulator/dump`),
    )
    expect(response?.status).toBe(200)
    expect(await response!.text()).toBe(whole)
  })
})

/** The server's resident memory, in MB (Linux). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!
  return Number(kb) / 1024
}

describe('the dump of a large world (busy: about 120 MB)', () => {
  /**
   * What a dump whose reader stopped may add to the server's memory: its queue (1 MB) and socket
   * buffers, and the garbage of the turns made before it stopped; the whole dump would add twice its 120 MB.
   */
  const HELD_MB = 80
  let cli: CliServer
  beforeAll(async () => {
    cli = await startCli(['-s', 'busy', '--now', NOW])
  })
  afterAll(() => cli?.stop())

  it('answers other requests while a reader that stopped holds its answer, which is not made ahead', async () => {
    const state = async () => (await bytesOf(await open(cli.url, '/__emulator/state'))).length
    for (let i = 0; i < 3; i++) await state()
    const before = rssMb(cli.child.pid!)
    const dump = await open(cli.url, '/__emulator/dump')
    const first = await new Promise<Buffer>((resolve) => dump.once('data', resolve))
    dump.pause()
    expect(first.toString('utf8')).toMatch(/^\{"format":"activation-emulator\/world@2"/)
    // Each asked after the last is answered: the dump is not made (nor held) meanwhile.
    for (let i = 0; i < 5; i++) expect(await state()).toBeGreaterThan(0)
    expect(rssMb(cli.child.pid!) - before).toBeLessThan(HELD_MB)
    dump.resume()
    let size = first.length
    let tail = ''
    for await (const chunk of dump) {
      size += (chunk as Buffer).length
      tail = (tail + (chunk as Buffer).toString('latin1')).slice(-3)
    }
    expect(tail).toBe('\n}\n')
    expect(size).toBeGreaterThan(100 << 20)
  })
})
