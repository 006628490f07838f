/**
 * The sandbox registry on its own, on a clock the test moves: found by id and by key, ended on request
 * or after its time to live without use, at most `max` at once, and the ended remembered so that their
 * requests hear why. Found missing by mutation testing (npm run test:mutation); the sandboxes' other
 * tests reach it through whole emulators.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { randomToken, SandboxRegistry, type HeldSandbox } from '../../src/emulator/sandboxes.js'

let now = 1_000_000
const registries: SandboxRegistry[] = []
afterEach(() => {
  for (const registry of registries.splice(0)) registry.endAll()
  vi.useRealTimers()
})

function registry(max = 3): SandboxRegistry {
  const made = new SandboxRegistry(max, () => now)
  registries.push(made)
  return made
}

/** A held sandbox that counts its touches and closes. */
function held(id: string, ttlMs = 0, keys = [`${id}-key`]): HeldSandbox & { touches: number; closes: number } {
  const sandbox = {
    id,
    // The registry keeps the sandbox as it is given, never reading it.
    sandbox: {} as HeldSandbox['sandbox'],
    keys,
    ttlMs,
    createdAt: now,
    lastUsed: now,
    keyed: [],
    prefixed: [],
    touches: 0,
    closes: 0,
    ended: undefined as string | undefined,
    touch() {
      sandbox.touches++
      sandbox.lastUsed = now
    },
    info: () => ({}) as ReturnType<HeldSandbox['info']>,
    close() {
      sandbox.closes++
    },
  }
  return sandbox
}

describe('SandboxRegistry', () => {
  it('finds a sandbox by id (marking it used) and by each of its keys (not marking it)', () => {
    const sandboxes = registry()
    expect([sandboxes.active, sandboxes.size]).toEqual([false, 0])
    const a = held('a', 0, ['k1', 'k2'])
    sandboxes.add(a)
    expect([sandboxes.active, sandboxes.size, sandboxes.has('a'), sandboxes.has('b')]).toEqual([true, 1, true, false])
    expect(sandboxes.get('a')).toBe(a)
    expect(sandboxes.byId('a')).toBe(a)
    expect(a.touches).toBe(2)
    expect([sandboxes.byKey('k1'), sandboxes.byKey('k2'), sandboxes.byKey('k3')]).toEqual([a, a, undefined])
    expect(a.touches).toBe(2)
    expect(sandboxes.byId('b')).toBe('Sandbox not found: "b" is not a sandbox of this emulator')
    expect(() => sandboxes.get('b')).toThrow(
      expect.objectContaining({
        code: 'unknown_sandbox',
        message: 'Sandbox not found: "b" is not a sandbox of this emulator',
      }),
    )
  })

  it('lists the sandboxes oldest first, and refuses one more than max with too_many_sandboxes', () => {
    const sandboxes = registry(2)
    const [a, b] = [held('a'), held('b')]
    sandboxes.add(a)
    sandboxes.add(b)
    expect(sandboxes.list()).toEqual([a, b])
    const refusal =
      'Too many sandboxes: 2 open, the most this emulator holds (maxSandboxes, --max-sandboxes); end one with DELETE /__emulator/sandboxes/<id> or close()'
    expect(() => sandboxes.checkRoom()).toThrow(
      expect.objectContaining({ code: 'too_many_sandboxes', message: refusal }),
    )
    expect(() => sandboxes.add(held('c'))).toThrow(refusal)
    expect(sandboxes.size).toBe(2)
    expect(sandboxes.end('a')).toBe(true)
    expect(() => sandboxes.checkRoom()).not.toThrow()
  })

  it('ends a sandbox once: closed, its id and keys then answer why, and it stays active while remembered', () => {
    const sandboxes = registry()
    const a = held('a', 0, ['k1'])
    sandboxes.add(a)
    expect(sandboxes.end('a', 'was ended by its test')).toBe(true)
    expect(sandboxes.end('a')).toBe(false)
    expect(a.closes).toBe(1)
    expect(a.ended).toBe('Sandbox not found: "a" was ended by its test')
    expect([sandboxes.size, sandboxes.has('a'), sandboxes.active]).toEqual([0, false, true])
    expect(sandboxes.byId('a')).toBe('Sandbox not found: "a" was ended by its test')
    expect(sandboxes.byKey('k1')).toBe('Sandbox not found: "a" was ended by its test')
    expect(sandboxes.list()).toEqual([])
  })

  it('ends every sandbox with endAll, each saying why', () => {
    const sandboxes = registry()
    const [a, b] = [held('a'), held('b')]
    sandboxes.add(a)
    sandboxes.add(b)
    sandboxes.endAll('was closed with its emulator')
    expect([a.closes, b.closes, sandboxes.size]).toEqual([1, 1, 0])
    expect(sandboxes.byId('b')).toBe('Sandbox not found: "b" was closed with its emulator')
    expect(held('x').ended).toBeUndefined()
    sandboxes.add(held('c'))
    sandboxes.endAll()
    expect(sandboxes.byId('c')).toBe('Sandbox not found: "c" was ended')
  })

  it('expires a sandbox its time to live after its last use, not before; one without ttl never', () => {
    const sandboxes = registry()
    const [a, b, forever] = [held('a', 5000, ['ka']), held('b', 5000, ['kb']), held('f', 0)]
    for (const s of [a, b, forever]) sandboxes.add(s)
    expect([sandboxes.expiresAt(a), sandboxes.expiresAt(forever)]).toEqual([now + 5000, null])
    now += 4999
    expect(sandboxes.byKey('ka')).toBe(a)
    expect(sandboxes.get('b')).toBe(b) // used: b lives 5 s from here
    now += 1
    const expired = 'Sandbox not found: "a" expired: it was not used for 5 s (its ttl)'
    expect(sandboxes.byKey('ka')).toBe(expired)
    expect(sandboxes.byId('a')).toBe(expired)
    expect(a.closes).toBe(1)
    expect(sandboxes.list()).toEqual([b, forever])
    now += 4999
    expect(sandboxes.has('b')).toBe(true)
    now += 1
    sandboxes.sweep()
    expect([sandboxes.has('b'), b.ended]).toEqual([
      false,
      'Sandbox not found: "b" expired: it was not used for 5 s (its ttl)',
    ])
    now += 1e9
    expect(sandboxes.get('f')).toBe(forever)
    expect(sandboxes.now()).toBe(now)
  })

  it('lists no sandbox whose time to live has passed, though nothing asked for it since', () => {
    const sandboxes = registry()
    const [a, b] = [held('a', 5000), held('b', 0)]
    sandboxes.add(a)
    sandboxes.add(b)
    now += 5000
    expect(sandboxes.list()).toEqual([b])
    expect([a.closes, sandboxes.size]).toEqual([1, 1])
  })

  it('makes room for a new sandbox by ending those whose time to live has passed', () => {
    const sandboxes = registry(1)
    const a = held('a', 5000)
    sandboxes.add(a)
    now += 5000
    expect(() => sandboxes.checkRoom()).not.toThrow()
    sandboxes.add(held('b', 5000))
    expect([a.closes, sandboxes.list().map((s) => s.id)]).toEqual([1, ['b']])
  })

  it('sweeps once a second while a sandbox with a ttl is held, and stops when none is', () => {
    vi.useFakeTimers()
    const sandboxes = registry()
    sandboxes.add(held('forever', 0))
    expect(vi.getTimerCount()).toBe(0)
    const a = held('a', 1500)
    sandboxes.add(a)
    sandboxes.add(held('b', 60_000))
    expect(vi.getTimerCount()).toBe(1)
    now += 1500
    vi.advanceTimersByTime(999)
    expect(a.closes).toBe(0)
    vi.advanceTimersByTime(1)
    expect(a.closes).toBe(1)
    sandboxes.end('forever')
    expect(vi.getTimerCount()).toBe(1)
    sandboxes.end('b')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('remembers the last 10,000 ended sandboxes and their keys, forgetting the oldest first', () => {
    const sandboxes = registry(20_000)
    for (let i = 0; i <= 10_000; i++) {
      sandboxes.add(held(`s${i}`, 0, [`k${i}`]))
      sandboxes.end(`s${i}`)
    }
    expect(sandboxes.byId('s0')).toBe('Sandbox not found: "s0" is not a sandbox of this emulator')
    expect(sandboxes.byKey('k0')).toBeUndefined()
    expect(sandboxes.byId('s1')).toBe('Sandbox not found: "s1" was ended')
    expect(sandboxes.byKey('k1')).toBe('Sandbox not found: "s1" was ended')
  })
})

describe('randomToken', () => {
  it('is that many letters of the alphabet without easily misread ones', () => {
    const tokens = Array.from({ length: 200 }, () => randomToken(12))
    for (const token of tokens) expect(token).toMatch(/^[a-hjkmnp-z2-9]{12}$/)
    expect(new Set(tokens).size).toBe(200)
    expect(new Set(tokens.join(''))).toEqual(new Set('abcdefghjkmnpqrstuvwxyz23456789'))
    expect(randomToken(0)).toBe('')
  })
})
