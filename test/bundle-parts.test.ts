/**
 * The parts of a reproduction bundle on the functions themselves: the body hash's values (a bundle
 * written by one version replays with another, so they never change), the log of changes and its
 * bounds, a row read back from a bundle edited by hand, and how replay says an answer differs.
 */
import { describe, expect, it } from 'vitest'
import { BodyHashes } from '../src/emulator/body-hash.js'
import { requestsOf, type BundleJournal, type BundledRequest } from '../src/emulator/bundle-journal.js'
import { ControlLog, loggedClock } from '../src/emulator/control-log.js'
import type { JournalEntry } from '../src/emulator/journal.js'
import { answerDifference } from '../src/node/replay/differences.js'
import { createClock } from '../src/time/clock.js'

const FROM = '2026-06-01T12:00:00.000Z'
const T0 = Date.parse(FROM)

describe('a body hash', () => {
  it('gives the same 16 hex digits as every version before (words of four bytes, and each tail of one to three)', () => {
    const hashes = new BodyHashes()
    const of = (text: string) => hashes.of(new TextEncoder().encode(text))
    expect(['', 'a', 'ab', 'abc', 'abcd', 'abcde', '{"items":[],"next":null}'].map(of)).toEqual([
      'ebb6c228d9aaf7d3',
      '11caa9f5776516a1',
      '5269e8088c85b2d9',
      'f1d553f8e6cce44f',
      'f04786273ace933d',
      'b6ec321c472202bf',
      '5f2c4c9608f83a4c',
    ])
  })
})

describe('the log of changes', () => {
  const log = (seq = () => 0) => new ControlLog(createClock(T0), seq)

  it('keeps 10,000 changes, then drops the oldest and says it is not complete', () => {
    const changes = log()
    for (let i = 0; i < 10_000; i++) changes.add({ change: 'faultRemoved', id: String(i) })
    expect(changes.complete).toBe(true)
    expect(changes.changes()).toHaveLength(10_000)
    changes.add({ change: 'faultRemoved', id: 'last' })
    expect(changes.complete).toBe(false)
    const kept = changes.changes()
    expect(kept).toHaveLength(10_000)
    expect([kept[0], kept.at(-1)]).toMatchObject([{ id: '1' }, { id: 'last' }])
  })

  it('keeps changes up to 8 MB as their JSON counts them, the newest even alone past it', () => {
    const changes = log()
    // Each change's JSON is counted twice (a string may be two bytes a character).
    const activation = (chars: number) => ({ change: 'addActivation' as const, activation: 'x'.repeat(chars) })
    const size = (chars: number) =>
      2 * JSON.stringify({ ...activation(chars), afterSeq: 0, at: FROM, realAt: Date.now() }).length
    const half = 4 << 20
    const first = half / 2 - size(0) / 2
    changes.add(activation(first))
    changes.add(activation(first))
    expect([changes.changes().length, changes.complete]).toEqual([2, true])
    changes.add(activation(0))
    expect([changes.changes().length, changes.complete]).toEqual([2, false])
    // One alone past the bound is kept.
    const big = log()
    big.add(activation(8 << 20))
    expect([big.changes().length, big.complete]).toEqual([1, true])
    big.add(activation(1))
    expect(big.changes().map((c) => ((c as { activation?: unknown }).activation as string).length)).toEqual([1])
    // Dropping frees what it held: more small ones fit again.
    for (let i = 0; i < 100; i++) big.add(activation(1))
    expect([big.changes().length, size(1) > 0]).toEqual([101, true])
    // And a big one again drops what came before it.
    big.add(activation(8 << 20))
    expect(big.changes()).toHaveLength(1)
  })

  it('lists the changes by their place among the requests, those of one place as they came, and forgets them on reset', () => {
    let seq = 5
    const changes = log(() => seq)
    changes.add({ change: 'faultsCleared' })
    changes.add({ change: 'faultRemoved', id: 'a' }, { afterSeq: 2, at: FROM, realAt: 0 })
    changes.add({ change: 'faultRemoved', id: 'b' }, { afterSeq: 2, at: FROM, realAt: 0 })
    changes.add({ change: 'faultRemoved', id: 'c' }, { afterSeq: 9, at: FROM, realAt: 0 })
    expect(changes.changes().map((c) => [c.afterSeq, c.change === 'faultRemoved' ? c.id : c.change])).toEqual([
      [2, 'a'],
      [2, 'b'],
      [5, 'faultsCleared'],
      [9, 'c'],
    ])
    seq = 12
    for (let i = 0; i < 10_001; i++) changes.add({ change: 'faultsCleared' })
    changes.reset()
    expect([changes.changes(), changes.complete, changes.startSeq]).toEqual([[], true, 12])
    for (let i = 0; i < 10_000; i++) changes.add({ change: 'faultsCleared' })
    expect(changes.complete).toBe(true)
    changes.reset()
    // After a reset the bytes count afresh: a second big change drops the first.
    const big = { change: 'addActivation' as const, activation: 'x'.repeat(3 << 20) }
    for (let i = 0; i < 3; i++) changes.add(big)
    expect(changes.changes()).toHaveLength(1)
  })

  it("logs every move of the clock with where it left it, and reads the clock's own", () => {
    const changes = log()
    const clock = loggedClock(createClock(T0, false, 3), changes)
    clock.set('2026-06-02T00:00:00Z')
    clock.advance('1h')
    clock.run()
    clock.freeze()
    expect([clock.speed, clock.frozen]).toEqual([3, true])
    expect(clock.now()).toBeGreaterThanOrEqual(Date.parse('2026-06-02T01:00:00Z'))
    expect(changes.changes().map((c) => c.change === 'clock' && [c.now.slice(0, 16), c.frozen])).toEqual([
      ['2026-06-02T00:00', true],
      ['2026-06-02T01:00', true],
      ['2026-06-02T01:00', false],
      [expect.stringMatching(/^2026-06-02T01:0/), true],
    ])
  })
})

describe('a bundle row read back', () => {
  const journal = (rows: unknown[][], keys: string[] = []): BundleJournal =>
    ({
      complete: true,
      firstSeq: 1,
      startedAt: 0,
      from: FROM,
      columns: [],
      keys,
      rows,
      bodies: {},
    }) as unknown as BundleJournal

  it('reads the method of a path that ends with a slash', () => {
    const [query, plain] = requestsOf(journal([['POST /activations/list/?a=1'], ['POST /activations/list/']]))
    expect(query).toMatchObject({ method: 'POST', path: '/activations/list/', search: 'a=1' })
    expect(plain).toMatchObject({ method: 'POST', path: '/activations/list/', search: '' })
  })

  it('leaves out what a row holds of the wrong type, and a key it has no name for', () => {
    const read = requestsOf(
      journal(
        [
          ['/a', 0, 0, 4, 200, 1, null, null, null, null, null, null, ['retry-after', '1']],
          ['/a', 0, 0, 0, 200, 1, null, null, null, null, null, null, null],
          ['/a', 0, 0, 0, 200, 1, null, null, null, null, null, 'path', 'retry-after: 1'],
        ],
        ['k'],
      ),
    )
    expect(read.map((r) => Object.keys(r).sort())).toEqual(
      Array(3).fill(['at', 'durationMs', 'fault', 'key', 'method', 'path', 'realMs', 'search', 'seq', 'status']),
    )
    expect(read.map((r) => r.key)).toEqual([null, 'k', 'k'])
  })
})

describe('how a replayed answer differs', () => {
  const recorded: BundledRequest = {
    seq: 1,
    at: FROM,
    realMs: 0,
    method: 'GET',
    path: '/activations/list',
    search: '',
    key: 'k',
    status: 200,
    durationMs: 1,
    fault: null,
    bodyHash: 'aaaa',
    items: 2,
  }
  const replayed = (over: Partial<JournalEntry> = {}) =>
    ({ seq: 1, status: 200, bodyHash: 'aaaa', items: 2, ...over }) as JournalEntry
  const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
  const none = new Uint8Array()

  it('names a request left unanswered, and each field that differs before the body', () => {
    expect(answerDifference(recorded, undefined, undefined, none)).toEqual({
      what: 'the request was not answered by the API',
    })
    expect(answerDifference(recorded, undefined, replayed(), none)).toBeUndefined()
    expect(answerDifference(recorded, undefined, replayed({ error: 'Nope' }), none)?.what).toBe(
      'its error was none and is now "Nope"',
    )
    expect(answerDifference(recorded, undefined, replayed({ items: 3 }), none)?.what).toBe(
      'its items was 2 and is now 3',
    )
    expect(answerDifference(recorded, undefined, replayed({ bodyHash: undefined }), none)?.what).toBe(
      'its body was "some" and is now "none"',
    )
    const long = 'x'.repeat(130)
    expect(answerDifference({ ...recorded, error: long }, undefined, replayed({ error: 'y' }), none)?.what).toBe(
      `its error was "${'x'.repeat(116)}... and is now "y"`,
    )
    const fits = 'x'.repeat(118)
    expect(answerDifference({ ...recorded, error: fits }, undefined, replayed(), none)?.what).toBe(
      `its error was "${fits}" and is now none`,
    )
  })

  it('says where two bodies first differ, in objects and lists of any length', () => {
    const what = (was: unknown, is: unknown) =>
      answerDifference(recorded, JSON.stringify(was), replayed({ bodyHash: 'bbbb' }), bytes(is))?.what
    expect(what({ items: [{ id: 1 }, { id: 2 }] }, { items: [{ id: 1 }, { id: 3 }] })).toBe(
      'its body differs in items (1 added (3); 1 gone (2)); first at $.items[1].id: recorded 2, replayed 3',
    )
    expect(what({ items: [1] }, { items: [1, 2] })).toMatch(/first at \$\.items\[1\]: recorded none, replayed 2$/)
    expect(what({ a: null }, { a: { b: 1 } })).toMatch(/first at \$\.a: recorded null, replayed \{"b":1\}$/)
    expect(what({ a: { b: 1 } }, { a: null })).toMatch(/first at \$\.a: recorded \{"b":1\}, replayed null$/)
    expect(what({ a: [1] }, { a: { 0: 1 } })).toMatch(/first at \$\.a: recorded \[1\], replayed \{"0":1\}$/)
    expect(what({ a: 'x' }, { a: ['x'] })).toMatch(/first at \$\.a: recorded "x", replayed \["x"\]$/)
    expect(what({ a: ['x'] }, { a: 'x' })).toMatch(/first at \$\.a: recorded \["x"\], replayed "x"$/)
    // A text beside an object, or a list beside an object, differs as a whole, not by its characters or places.
    expect(what({ a: 'xy' }, { a: { 0: 'x', 1: 'z' } })).toMatch(/first at \$\.a: recorded "xy", replayed/)
    expect(what({ a: { 0: 'x', 1: 'z' } }, { a: 'xy' })).toMatch(/first at \$\.a: recorded \{/)
    expect(what({ a: { 0: 1, 1: 2 } }, { a: [1, 3] })).toMatch(/first at \$\.a: recorded \{/)
    expect(what([1], 'x')).toBe('its body differs; first at $: recorded [1], replayed "x"')
  })

  it('says only that a body differs when its JSON is the same but its bytes are not', () => {
    const spaced = new TextEncoder().encode('{ "a": 1 }')
    expect(answerDifference(recorded, '{"a":1}', replayed({ bodyHash: 'bbbb' }), spaced)?.what).toBe('its body differs')
  })

  it('compares a body that is not JSON as text, and says when the bundle kept none', () => {
    const text = new TextEncoder().encode('<p>bad</p>')
    expect(answerDifference(recorded, '<p>ok</p>', replayed({ bodyHash: 'bbbb' }), text)).toEqual({
      what: 'its body differs; first at $: recorded "<p>ok</p>", replayed "<p>bad</p>"',
      bodies: { recorded: '<p>ok</p>', replayed: '<p>bad</p>' },
    })
    expect(answerDifference(recorded, undefined, replayed({ bodyHash: 'bbbb' }), text)).toEqual({
      what: 'its body differs (hash aaaa recorded, bbbb replayed); the bundle kept no text of it to compare (make it with bodies)',
      replayed: '<p>bad</p>',
    })
  })
})
