import { setImmediate as nextTurn } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LogLines } from '../../src/node/cli/log-lines.js'

// The request log's writer: lines written within 20 ms go out in one write, in order, whatever the
// turns between them, and nothing is held past 20 ms or past 64 KB.

function recorder() {
  const writes: string[] = []
  return { writes, out: { write: (text: string) => writes.push(text) } }
}

describe('LogLines', () => {
  beforeEach(() => {
    // The timers only: the turns of the event loop stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('writes the lines of 20 ms together, in order, whatever the turns between them', async () => {
    const { writes, out } = recorder()
    const log = new LogLines(out)
    log.write('GET /a 200 0.1 ms\n')
    await nextTurn()
    log.write('GET /b 404 0.2 ms\n')
    await nextTurn()
    vi.advanceTimersByTime(19)
    expect(writes).toEqual([])
    vi.advanceTimersByTime(1)
    expect(writes).toEqual(['GET /a 200 0.1 ms\nGET /b 404 0.2 ms\n'])
    log.write('GET /c 200 0.1 ms\n')
    vi.advanceTimersByTime(20)
    expect(writes).toEqual(['GET /a 200 0.1 ms\nGET /b 404 0.2 ms\n', 'GET /c 200 0.1 ms\n'])
  })

  it('holds a line written after a write its own 20 ms, whenever the lines before it came', () => {
    const { writes, out } = recorder()
    const log = new LogLines(out)
    log.write('a\n')
    vi.advanceTimersByTime(10)
    log.write('b\n')
    vi.advanceTimersByTime(10)
    expect(writes).toEqual(['a\nb\n'])
    log.write('c\n')
    vi.advanceTimersByTime(19)
    expect(writes).toEqual(['a\nb\n'])
    vi.advanceTimersByTime(1)
    expect(writes).toEqual(['a\nb\n', 'c\n'])
  })

  it('writes at once when 64 KB are held, keeping the order', () => {
    const { writes, out } = recorder()
    const log = new LogLines(out)
    const line = `${'x'.repeat(1023)}\n`
    for (let i = 0; i < 63; i++) log.write(line)
    expect(writes).toEqual([])
    log.write(line)
    expect(writes).toEqual([line.repeat(64)])
    log.write('last\n')
    vi.advanceTimersByTime(20)
    expect(writes).toEqual([line.repeat(64), 'last\n'])
  })

  it('writes what is held when the process exits, once', () => {
    const { writes, out } = recorder()
    const before = process.listeners('exit')
    const log = new LogLines(out)
    const added = process.listeners('exit').filter((listener) => !before.includes(listener))
    expect(added).toHaveLength(1)
    log.write('GET /a 200 0.1 ms\n')
    for (const listener of added) {
      process.removeListener('exit', listener)
      listener.call(process, 0)
    }
    expect(writes).toEqual(['GET /a 200 0.1 ms\n'])
    vi.advanceTimersByTime(20)
    expect(writes).toEqual(['GET /a 200 0.1 ms\n'])
  })

  it('writes nothing when no line is held', () => {
    const { writes, out } = recorder()
    const log = new LogLines(out)
    log.flush()
    vi.advanceTimersByTime(20)
    expect(writes).toEqual([])
  })
})
