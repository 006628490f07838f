import { describe, expect, it } from 'vitest'
import { RateLimiter } from '../handlers/rate-limit.js'

const LIMIT = { limit: 2, windowSeconds: 60 }
const T0 = Date.parse('2026-06-01T12:00:00.000Z')

/** A limiter on a real time the test moves by hand, and the emulator instant the test passes in. */
function limiter() {
  let real = 5_000
  const limiter = new RateLimiter(() => real)
  return {
    pass: (ms: number) => void (real += ms),
    take: (clock: number) => limiter.take('key', LIMIT, clock),
  }
}

describe('rate-limit windows, on the emulator clock and on real time', () => {
  it('closes a window after its length in real time while the clock is frozen, counting down', () => {
    const l = limiter()
    l.take(T0)
    l.take(T0)
    expect(l.take(T0)).toMatchObject({ allowed: false, resetInMs: 60_000 })
    l.pass(20_000)
    expect(l.take(T0)).toMatchObject({ allowed: false, resetInMs: 40_000 })
    l.pass(39_999)
    expect(l.take(T0)).toMatchObject({ allowed: false, resetInMs: 1 })
    l.pass(1)
    expect(l.take(T0)).toMatchObject({ allowed: true, remaining: 1, resetInMs: 60_000 })
  })

  it('closes a window at once when the clock is moved past it, with no real time passing', () => {
    const l = limiter()
    l.take(T0)
    l.take(T0)
    expect(l.take(T0 + 59_999)).toMatchObject({ allowed: false, resetInMs: 1 })
    expect(l.take(T0 + 60_000)).toMatchObject({ allowed: true, resetInMs: 60_000 })
  })

  it('ages a window by the larger of the two: the clock moved 30 s and 20 s of real time leave 30 s', () => {
    const l = limiter()
    l.take(T0)
    l.take(T0)
    l.pass(20_000)
    expect(l.take(T0 + 30_000)).toMatchObject({ allowed: false, resetInMs: 30_000 })
    l.pass(25_000)
    expect(l.take(T0 + 30_000)).toMatchObject({ allowed: false, resetInMs: 15_000 })
    l.pass(15_000)
    expect(l.take(T0 + 30_000).allowed).toBe(true)
  })

  it('opens a new window when the clock is moved back before the window started', () => {
    const l = limiter()
    l.take(T0)
    l.take(T0)
    expect(l.take(T0 - 1)).toMatchObject({ allowed: true, remaining: 1, resetInMs: 60_000 })
  })

  it('never extends the wait with refused requests, whichever time moves', () => {
    const l = limiter()
    l.take(T0)
    l.take(T0)
    for (let i = 0; i < 5; i++) {
      l.pass(5_000)
      expect(l.take(T0 + i * 5_000).allowed).toBe(false)
    }
    l.pass(35_000)
    expect(l.take(T0 + 25_000).allowed).toBe(true)
  })
})
