/**
 * The journal keeps the bodies of its last answers, within a count and a byte budget, the oldest
 * dropped first, beside its entries and never in them: `GET /__emulator/requests/:seq/body` answers a
 * request's body as it was sent, or a 404 saying why it has it no longer. A sandbox's journal keeps its own.
 */
import { getResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { AnsweredBodies, SANDBOX_ANSWERED_BODY_BYTES } from '../../src/emulator/answered-bodies.js'
import { Journal } from '../../src/emulator/journal.js'
import { journalRecord } from '../support/journal-record.js'

const NOW = '2026-06-01T12:00:00.000Z'
const made: Emulator[] = []
afterEach(async () => {
  for (const emulator of made.splice(0)) await emulator.close()
})

/** `n` bytes of a body. */
const bytes = (n: number) => new Uint8Array(n).fill(0x20)

/** A journal that keeps the bodies of its last `count` answers within `maxBytes`, with `sizes` recorded. */
function journalOf(count: number, maxBytes: number, sizes: number[]): Journal {
  const journal = new Journal(1000, undefined, new AnsweredBodies(count, maxBytes))
  for (const size of sizes) journal.add({ ...journalRecord(NOW), status: 200 }, bytes(size))
  return journal
}

/** Which of the journal's requests 1 to `last` have their body kept. */
const keptOf = (journal: Journal, last: number) =>
  Array.from({ length: last }, (_, i) => i + 1).filter((seq) => journal.body(seq).kept)

describe('the bodies kept, in bytes', () => {
  it('keeps bodies that make exactly the budget, and drops the oldest at one byte past it', () => {
    expect(keptOf(journalOf(10, 300, [100, 100, 100]), 3)).toEqual([1, 2, 3])
    expect(keptOf(journalOf(10, 300, [100, 100, 101]), 3)).toEqual([2, 3])
    expect(keptOf(journalOf(10, 301, [100, 100, 101]), 3)).toEqual([1, 2, 3])
    expect(journalOf(10, 300, [100, 100, 101]).body(1)).toEqual({
      kept: false,
      why: 'dropped',
      answers: 10,
      maxBytes: 300,
    })
  })

  it('keeps a body of exactly the budget alone; one a byte larger is not kept, and drops none', () => {
    expect(keptOf(journalOf(10, 300, [100, 300]), 2)).toEqual([2])
    const journal = journalOf(10, 300, [100, 301])
    expect(keptOf(journal, 2)).toEqual([1])
    expect(journal.body(2)).toEqual({ kept: false, why: 'too-large', size: 301, answers: 10, maxBytes: 300 })
  })

  it('keeps the bodies of the last `count` answers: exactly that many, the oldest dropped at one more', () => {
    expect(keptOf(journalOf(3, 1000, [1, 1, 1]), 3)).toEqual([1, 2, 3])
    expect(keptOf(journalOf(3, 1000, [1, 1, 1, 1]), 4)).toEqual([2, 3, 4])
    const journal = journalOf(3, 1000, [1, 1, 1, 1, 1, 1, 1])
    expect(keptOf(journal, 7)).toEqual([5, 6, 7])
  })

  it('keeps the bytes it was given, not a copy, and forgets them when the journal is cleared', () => {
    const journal = new Journal(1000)
    const body = bytes(10)
    journal.add({ ...journalRecord(NOW), status: 200 }, body)
    journal.add(journalRecord(NOW))
    expect(journal.body(1)).toEqual({ kept: true, bytes: body })
    expect((journal.body(1) as { bytes: Uint8Array }).bytes).toBe(body)
    expect(journal.body(2)).toMatchObject({ kept: false, why: 'none' })
    journal.clear()
    expect(journal.body(1).kept).toBe(false)
  })
})

describe('AnsweredBodies, its bytes', () => {
  /** Bodies of `sizes` kept in order (seq 1, 2, ...) by the last `count` within `maxBytes`. */
  function kept(count: number, maxBytes: number, sizes: number[]): AnsweredBodies {
    const bodies = new AnsweredBodies(count, maxBytes)
    sizes.forEach((size, i) => bodies.keep(i + 1, bytes(size)))
    return bodies
  }

  it('counts the bytes of the bodies kept: those dropped past the count, or past the bytes, leave it', () => {
    expect(kept(3, 1000, []).bytes).toBe(0)
    expect(kept(3, 1000, [1, 2, 3]).bytes).toBe(6)
    expect(kept(3, 1000, [1, 2, 3, 4]).bytes).toBe(9)
    expect(kept(3, 1000, [1, 2, 3, 4, 5, 6, 7]).bytes).toBe(18)
    expect(kept(10, 300, [100, 100, 101]).bytes).toBe(201)
  })

  it('counts none of a body too large to keep, before or after it is dropped', () => {
    expect(kept(10, 300, [100, 301]).bytes).toBe(100)
    // The too-large one's slot dropped by the count: the bytes of those kept still.
    expect(kept(2, 300, [301, 100, 100]).bytes).toBe(200)
    const bodies = kept(2, 300, [100, 301, 100, 100])
    expect(bodies.bytes).toBe(200)
    expect(bodies.get(2)).toStrictEqual({ kept: false, why: 'dropped', answers: 2, maxBytes: 300 })
    expect(bodies.get(4)).toStrictEqual({ kept: true, bytes: bytes(100) })
  })

  it('gives a size only for a body too large', () => {
    const bodies = kept(10, 300, [301])
    expect(bodies.get(1)).toStrictEqual({ kept: false, why: 'too-large', size: 301, answers: 10, maxBytes: 300 })
    expect(bodies.get(2)).toStrictEqual({ kept: false, why: 'none', answers: 10, maxBytes: 300 })
  })

  it('keeps nothing when it keeps no answers: every body is dropped', () => {
    const bodies = kept(0, 300, [10, 20])
    expect(bodies.bytes).toBe(0)
    expect(bodies.get(1)).toStrictEqual({ kept: false, why: 'dropped', answers: 0, maxBytes: 300 })
  })

  it('says none, not dropped, of a request after a clear, and keeps again from there', () => {
    const bodies = kept(3, 300, [10, 20])
    bodies.clear()
    expect(bodies.bytes).toBe(0)
    expect(bodies.get(1)).toMatchObject({ kept: false, why: 'none' })
    bodies.keep(3, bytes(30))
    expect(bodies.bytes).toBe(30)
    expect(bodies.get(3)).toStrictEqual({ kept: true, bytes: bytes(30) })
    expect(bodies.get(2)).toMatchObject({ kept: false, why: 'dropped' })
  })
})

describe('GET /__emulator/requests/:seq/body', () => {
  async function served() {
    const emulator = await createEmulator({ scenario: 'default', now: NOW })
    made.push(emulator)
    const key = emulator.accounts[0]!.apiKeys[0]!
    const origin = new URL(emulator.baseUrl).origin
    const api = async (
      path: string,
      method = 'GET',
      emulated: Pick<Emulator, 'handlers' | 'baseUrl'> = emulator,
      k = key,
    ) =>
      (await getResponse(
        emulated.handlers,
        new Request(`${emulated.baseUrl}${path}`, { method, headers: { authorization: `Api-Key ${k}` } }),
      ))!
    const admin = async (path: string) => {
      const response = (await getResponse(emulator.adminHandlers, new Request(`${origin}/__emulator${path}`)))!
      return { status: response.status, text: await response.text() }
    }
    return { emulator, api, admin }
  }

  it("answers a 200's body as it was sent, and no entry of the journal or its stream carries it", async () => {
    const { api, admin } = await served()
    const sent = await (await api('/activations/list?limit=2')).text()
    expect(await admin('/requests/1/body')).toEqual({ status: 200, text: sent })
    const journal = await admin('/requests')
    expect(journal.status).toBe(200)
    expect(Object.keys((JSON.parse(journal.text) as { requests: object[] }).requests[0]!)).not.toContain('body')
    expect(journal.text).not.toContain(sent.slice(0, 40))
  })

  it('answers 404 saying why for an error, a HEAD, a request not made, and 400 for a seq that is none', async () => {
    const { api, admin } = await served()
    expect((await api('/activations/nope')).status).toBe(404)
    expect((await api('/activations/list', 'HEAD')).status).toBe(200)
    expect(await admin('/requests/1/body')).toEqual({
      status: 404,
      text: '{"error":"Request #1 has no body kept: it was answered 404 with {\\"error\\"}, whose message is in its entry"}',
    })
    expect(await admin('/requests/2/body')).toEqual({
      status: 404,
      text: '{"error":"Request #2 has no body kept: a HEAD is answered no body"}',
    })
    expect(await admin('/requests/3/body')).toEqual({ status: 404, text: '{"error":"No request #3: the last is #2"}' })
    for (const seq of ['0', 'x', '1e3', '__proto__']) {
      expect(await admin(`/requests/${seq}/body`)).toEqual({
        status: 400,
        text: `{"error":"seq must be a request's number (1 or more), got \\"${seq}\\""}`,
      })
    }
  })

  it('says when the request has left the journal', async () => {
    const { emulator, api, admin } = await served()
    await api('/activations/list')
    emulator.journal.clear()
    expect(await admin('/requests/1/body')).toEqual({
      status: 404,
      text: '{"error":"Request #1 is no longer in the journal: it is empty"}',
    })
  })

  it("keeps a sandbox's bodies in its own journal, read under its own path, within its own budget", async () => {
    const { emulator, api, admin } = await served()
    const sandbox = await emulator.sandbox({})
    const sandboxKey = sandbox.accounts[0]!.apiKeys[0]!
    const host = await (await api('/activations/list?limit=1')).text()
    const own = await (await api('/activations/list?limit=3', 'GET', sandbox, sandboxKey)).text()
    expect(own).not.toBe(host)
    expect(await admin(`/sandboxes/${sandbox.id}/requests/1/body`)).toEqual({ status: 200, text: own })
    expect(await admin('/requests/1/body')).toEqual({ status: 200, text: host })
    // Past its budget, the sandbox's oldest body is dropped; the host's stays.
    for (let i = 0; i < SANDBOX_ANSWERED_BODY_BYTES / own.length + 1; i++)
      await api('/activations/list?limit=3', 'GET', sandbox, sandboxKey)
    expect((await admin(`/sandboxes/${sandbox.id}/requests/1/body`)).text).toMatch(
      /^\{"error":"The body of request #1 is no longer kept: the journal keeps the bodies of its last 100 answers within 256 KB, the oldest dropped first"\}$/,
    )
    expect(await admin('/requests/1/body')).toEqual({ status: 200, text: host })
  })
})
