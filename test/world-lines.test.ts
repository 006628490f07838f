import fc from 'fast-check'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createEmulator } from '../src/index.js'
import { NotDumpLayout, readWorldLines, worldLineReader } from '../src/node/world-lines.js'
import { worldDumpText, type WorldDump } from '../src/world/dump.js'
import { plannedScenarios } from './support/planned-scenarios.js'

const NOW = '2026-06-01T12:00:00Z'
const dir = mkdtempSync(join(tmpdir(), 'world-lines-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function dumpOf(scenario: NonNullable<Parameters<typeof createEmulator>[0]>['scenario']): Promise<string> {
  const emulator = await createEmulator({ scenario, now: NOW })
  return [...emulator.dump()].join('')
}

/** The reader fed the text's lines as a file's would be. */
function readText(text: string): Record<string, unknown> {
  const reader = worldLineReader()
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  for (const line of lines) reader.line(line)
  return reader.done()
}

describe('a world file read a line at a time', () => {
  it('reads every dump as JSON.parse reads it whole, from a file read in chunks of any size', async () => {
    await fc.assert(
      fc.asyncProperty(plannedScenarios, fc.integer({ min: 1, max: 4096 }), async (scenario, chunkBytes) => {
        const text = await dumpOf(scenario)
        const path = join(dir, 'world.json')
        writeFileSync(path, text)
        expect(await readWorldLines(path, chunkBytes)).toEqual(JSON.parse(text))
      }),
      { numRuns: 15 },
    )
  })

  it('reads text cut anywhere in a character of several bytes, and lists left empty', async () => {
    const dump = JSON.parse(await dumpOf('empty')) as WorldDump
    const record = { id: 'é😀—', note: 'line\nbreak, "quoted" ], and a comma,' }
    const withText = { ...dump, activations: [record, record] } as unknown as WorldDump
    const text = [...worldDumpText(withText)].join('')
    const path = join(dir, 'text.json')
    writeFileSync(path, text)
    for (const chunkBytes of [1, 2, 3, 5, 7, 64])
      expect(await readWorldLines(path, chunkBytes)).toEqual(JSON.parse(text))
    expect(readText([...worldDumpText(dump)].join(''))).toEqual(dump)
    // A file whose last line has no line break (an editor's save): its last line is read all the same.
    writeFileSync(path, text.trimEnd())
    expect(await readWorldLines(path, 3)).toEqual(JSON.parse(text))
  })

  it('refuses, naming the line, what is not in the layout a dump writes', async () => {
    const text = await dumpOf('default')
    const whole = JSON.parse(text) as object
    const lines = text.split('\n')
    const refused = (other: string) => {
      try {
        readText(other)
      } catch (error) {
        expect(error).toBeInstanceOf(NotDumpLayout)
        return (error as Error).message
      }
      return 'read'
    }
    expect(refused(JSON.stringify(whole))).toMatch(/^line 1: the first line is not the head/)
    expect(refused(JSON.stringify(whole, null, 2))).toMatch(/^line 1: /)
    // A record's comma dropped, a comma after the last record, a line cut in two, the end missing.
    const entry = lines.findIndex((line) => line === '"entries":[') + 2
    expect(refused(lines.map((l, i) => (i === entry ? l.slice(0, -1) : l)).join('\n'))).toBe(
      `line ${(entry + 2).toLocaleString('en')}: a record after one that does not end with a comma`,
    )
    const lastEntry = lines.findIndex((line) => line === '],', entry) - 1
    expect(refused(lines.map((l, i) => (i === lastEntry ? `${l},` : l)).join('\n'))).toBe(
      `line ${(lastEntry + 2).toLocaleString('en')}: a comma after the last record`,
    )
    const cut = [
      ...lines.slice(0, entry),
      lines[entry]!.slice(0, 20),
      lines[entry]!.slice(20),
      ...lines.slice(entry + 1),
    ]
    expect(refused(cut.join('\n'))).toMatch(new RegExp(`^line ${entry + 1}: not JSON`))
    expect(refused(lines.slice(0, -2).join('\n'))).toMatch(/the file ends before the world does$/)
    expect(refused(`${text}{}\n`)).toMatch(/text after the end of the world$/)
    // A bad record is named by its line and column, never quoted: it may hold a secret.
    const secret = lines.map((l, i) => (i === entry ? '{"key":"sk_live_secret" "x"},' : l))
    expect(refused(secret.join('\n'))).toBe(`line ${(entry + 1).toLocaleString('en')}: not JSON at column 25`)
    const bare = lines.map((l, i) => (i === entry ? 'sk_live_secret,' : l))
    expect(refused(bare.join('\n'))).toBe(`line ${(entry + 1).toLocaleString('en')}: not JSON`)
  })
})
