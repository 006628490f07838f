/**
 * What a sandbox's data may cost, through the built command line: a server given a small heap survives
 * bodies whose parsed value would not fit it (413, one at a time), data nested too deep is a 400
 * naming the bound, and large bodies that open a sandbox are read one after the other.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const NOW = '2026-06-01T12:00:00.000Z'
/** A heap small enough that data of tiny values past a few megabytes would not fit it. */
const HEAP_MB = 256
let cli: CliServer
beforeAll(async () => {
  cli = await startCli(['-s', 'default', '--now', NOW], { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` })
})
afterAll(() => cli?.stop('SIGKILL'))

type Answer = { status: number; body: any }

/** A POST that opens a sandbox: `first` is sent at once, the rest (if any) when `rest()` is called. */
function post(
  first: Buffer | string,
  length: number,
): { answer: Promise<Answer>; rest: (bytes: Buffer | string) => void } {
  let req!: ReturnType<typeof request>
  const answer = new Promise<Answer>((resolve, reject) => {
    req = request(`${new URL(cli.url).origin}/__emulator/sandboxes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': length },
    })
    req.on('response', (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (d: string) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.write(first)
  })
  return { answer, rest: (bytes) => req.end(bytes) }
}

/** A whole body, sent at once. */
const send = (body: Buffer | string) => post(body, Buffer.byteLength(body)).answer

const page = async () => {
  const response = await fetch(`${cli.url}/activations/list?limit=1`, {
    headers: { authorization: 'Api-Key demo-key' },
  })
  await response.arrayBuffer()
  return response.status
}

/** `levels` arrays and objects, each inside the one before. */
const nested = (levels: number) => `${'[{"k":'.repeat(levels / 2)}1${'}]'.repeat(levels / 2)}`

describe("a sandbox's data", () => {
  it('two bodies of 12 MB of `{}` at once, each a value of ~250 MB: both 413 naming the share, and the server still answers', async () => {
    const body = `{"data":[${'{},'.repeat(4_000_000)}{}]}`
    const answers = await Promise.all([send(body), send(body)])
    for (const { status, body: error } of answers) {
      expect(status).toBe(413)
      expect(error.error).toMatch(
        /^Request body too large: its data's parsed value passed \d+ MB, a third of the memory the server had free/,
      )
    }
    expect(await page()).toBe(200)
    expect(cli.child.exitCode).toBeNull()
  })

  it('nested 100,000 levels deep: a 400 naming the bound of 64, in a small body and a large one', async () => {
    const deep = `{"data":${nested(100_000)}}`
    const padded = `{"label":"${'x'.repeat(1 << 20)}","data":${nested(100_000)}}`
    for (const body of [deep, padded]) {
      expect(await send(body)).toEqual({
        status: 400,
        body: { error: 'Malformed body: its JSON nests arrays and objects more than 64 levels deep (at most 64)' },
      })
    }
  })

  it('nested exactly 64 levels, the body counted: past the depth check; 65: the 400, in a small body and a large one', async () => {
    const TOO_DEEP = 'Malformed body: its JSON nests arrays and objects more than 64 levels deep (at most 64)'
    /** `levels` arrays, each inside the one before. */
    const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`
    const pad = `"label":"${'x'.repeat(1 << 20)}",`
    for (const padding of ['', pad]) {
      const deepest = await send(`{${padding}"data":${arrays(63)}}`)
      expect(deepest.status).toBe(400)
      // Refused for what else it is (not a world, or a label too long), not for its depth.
      expect(deepest.body.error).not.toBe(TOO_DEEP)
      expect(await send(`{${padding}"data":${arrays(64)}}`)).toEqual({ status: 400, body: { error: TOO_DEEP } })
    }
  })

  it('a large body that opens a sandbox waits, unread, while another is read: answered in the order they came', async () => {
    const label = 'x'.repeat(1 << 20)
    const whole = `{"label":"${label}"}`
    const first = post(whole.slice(0, 1000), whole.length)
    // The first holds its turn; the second, sent whole, waits for it.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const order: string[] = []
    const second = send(whole).then((a) => (order.push('second'), a))
    // The host answers meanwhile.
    for (let i = 0; i < 5; i++) expect(await page()).toBe(200)
    expect(order).toEqual([])
    first.rest(whole.slice(1000))
    const answers = await Promise.all([first.answer.then((a) => (order.push('first'), a)), second])
    expect(order).toEqual(['first', 'second'])
    for (const { status } of answers) expect(status).toBe(400)
  })
})
