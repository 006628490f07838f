/**
 * What a world file may cost to read: a file over 1 MB holding more than one object or array per 20
 * bytes (a file of `{}`s, 30 times its size once parsed) is refused before it is parsed; a dump's
 * check stops at its first 20 problems, whatever the number of bad records after them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readWorldFile } from '../src/node/world-file.js'
import { parseWorldDump } from '../src/world/dump.js'
import { createEmulator } from '../src/index.js'

const dir = mkdtempSync(join(tmpdir(), 'ae-world-cost-'))

/** A JSON array of `n` objects of 20 characters each with their comma, padded with spaces to `length`. */
function arrayOf(n: number, length: number): string {
  const items = Array.from({ length: n }, () => '{"a":"xxxxxxxxxxx"}').join(',')
  const text = `[${items}]`
  return text + ' '.repeat(length - text.length)
}

describe('a world file of tiny objects', () => {
  // n objects and the array: n + 1 containers, allowed in 20 (n + 1) characters, not in one fewer.
  const n = 60_000
  it('is read when it holds exactly one object or array per 20 bytes', async () => {
    const file = join(dir, 'dense-enough.json')
    writeFileSync(file, arrayOf(n, 20 * (n + 1)))
    expect((await readWorldFile(file)).text).toHaveLength(20 * (n + 1))
  })

  it('is refused, before it is parsed, with one more than that', async () => {
    const file = join(dir, 'too-dense.json')
    writeFileSync(file, arrayOf(n, 20 * (n + 1) - 1))
    await expect(readWorldFile(file)).rejects.toThrow(
      /^it holds more than one object or array per 20 bytes \(past character [\d,]+\): not a world, whose records take about 80 bytes each$/,
    )
  })

  it("is read whatever it holds up to 1 MB, and a dump's own file (7 MB) passes", async () => {
    const small = join(dir, 'small.json')
    writeFileSync(small, `[${Array(300_000).fill('{}').join(',')}]`)
    expect((await readWorldFile(small)).text).toBeDefined()
    const emulator = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00.000Z' })
    const world = join(dir, 'world.json')
    writeFileSync(world, [...emulator.dump()].join(''))
    await emulator.close()
    expect((await readWorldFile(world)).text!.length).toBeGreaterThan(1 << 20)
  })
})

describe("a dump's check", () => {
  it('stops at its first 20 problems, reading no record after the one that made them 20', async () => {
    const emulator = await createEmulator({ scenario: 'empty', now: '2026-06-01T12:00:00.000Z' })
    const dump = JSON.parse([...emulator.dump()].join(''))
    await emulator.close()
    let read = 0
    // Each bad record gives at least one problem: at most 20 are read of the 10,000.
    dump.activations = Array.from({ length: 10_000 }, () => ({
      get id() {
        read++
        return undefined
      },
    }))
    expect(() => parseWorldDump(dump, 'data')).toThrow(/\n {2}\.\.\.the check stops at the first 20 problems$/)
    expect(read).toBeGreaterThan(0)
    expect(read).toBeLessThanOrEqual(20)
  })
})
