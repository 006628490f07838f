import { setImmediate as nextTurn } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { LogLines } from '../../src/node/cli/log-lines.js'

// The request log's writer: lines of one turn go out in one write, in order, and nothing is held
// past the turn or past 64 KB.

function recorder() {
  const writes: string[] = []
  return { writes, out: { write: (text: string) => writes.push(text) } }
}

describe('LogLines', () => {
  it('writes the lines of one turn together, in order, once the turn ends', async () => {
    const { writes, out } = recorder()
    const log = new LogLines(out)
    log.write('GET /a 200 0.1 ms\n')
    log.write('GET /b 404 0.2 ms\n')
    expect(writes).toEqual([])
    await nextTurn()
    expect(writes).toEqual(['GET /a 200 0.1 ms\nGET /b 404 0.2 ms\n'])
    log.write('GET /c 200 0.1 ms\n')
    await nextTurn()
    expect(writes).toEqual(['GET /a 200 0.1 ms\nGET /b 404 0.2 ms\n', 'GET /c 200 0.1 ms\n'])
  })

  it('writes at once when 64 KB are held, keeping the order', async () => {
    const { writes, out } = recorder()
    const log = new LogLines(out)
    const line = `${'x'.repeat(1023)}\n`
    for (let i = 0; i < 63; i++) log.write(line)
    expect(writes).toEqual([])
    log.write(line)
    expect(writes).toEqual([line.repeat(64)])
    log.write('last\n')
    await nextTurn()
    expect(writes).toEqual([line.repeat(64), 'last\n'])
  })

  it('writes nothing for a turn without lines', async () => {
    const { writes, out } = recorder()
    const log = new LogLines(out)
    log.flush()
    await nextTurn()
    expect(writes).toEqual([])
  })
})
