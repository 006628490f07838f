import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { worldDumpText } from '../../src/world/dump.js'
import { worldFromRecording } from '../../src/world/from-recording.js'
import { runCli, startCli, type CliServer } from '../support/cli.js'
import { recordEmulator } from '../support/record-emulator.js'
import { TEST_MS } from '../support/timeouts.js'

// A world file larger than Node can parse (512 MB) is read back, byte for byte, against the dump its
// head's scenario makes, and served as that scenario's world when every byte matches. Here the limit
// is lowered (the hidden --data-whole-limit) so that the default world's 7 MB dump stands for 5 GB.

const NOW = '2026-06-01T12:00:00Z'
const LIMIT = ['--data-whole-limit', '1000']
const dir = mkdtempSync(join(tmpdir(), 'ae-data-by-scenario-'))
const dumped = join(dir, 'world.json')
const DEMO = { Authorization: 'Api-Key demo-key' }

/** A run that ended with exit 1, exactly `line` on stderr, and nothing on stdout. */
function expectRefused(run: { code: number | null; stdout: string; stderr: string }, line: string): void {
  expect(run.stderr).toBe(`activation-emulator: ${line}\n`)
  expect(run.code).toBe(1)
  expect(run.stdout).toBe('')
}

/** A size as the messages say it: MB from a megabyte up, else bytes. */
const sized = (n: number) =>
  n >= 2 ** 20 ? `${Math.round(n / 2 ** 20).toLocaleString('en')} MB` : `${n.toLocaleString('en')} bytes`

/** A copy of the dump with `change` made to its bytes, in a file of its own. */
function changed(name: string, change: (bytes: Buffer) => Buffer): string {
  const file = join(dir, name)
  writeFileSync(file, change(readFileSync(dumped)))
  return file
}

beforeAll(async () => {
  const run = await runCli(['dump', '--now', NOW, '--out', dumped])
  expect(run.code, run.stderr).toBe(0)
}, TEST_MS.long)

describe('--data of a world file over the limit', () => {
  const servers: CliServer[] = []
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()))
  })

  it(
    'serves the same bytes as the scenario it was dumped from, page after page',
    async () => {
      const [read, planned] = await Promise.all([startCli(['--data', dumped, ...LIMIT]), startCli(['--now', NOW])])
      servers.push(read, planned)
      const list = (await (await fetch(`${planned.url}/activations/list?limit=50`, { headers: DEMO })).json()) as {
        activations: { id: string }[]
      }
      const ids = list.activations.map((a) => a.id)
      const paths = [
        '/activations/list?limit=7',
        '/activations/list?limit=50&state=ended',
        `/activations/${ids[0]}?limit=100`,
        `/activations/${ids[20]}?limit=3&offset=5`,
        `/activations/${ids.at(-1)}?limit=100`,
        '/activations/latest?limit=10',
        '/experience/participants?limit=100',
        '/experience/participants?limit=100&offset=200',
      ]
      for (const path of paths) {
        const [a, b] = await Promise.all(
          [read, planned].map((s) => fetch(`${s.url}${path}`, { headers: DEMO }).then((r) => r.text())),
        )
        expect(a, path).toBe(b)
      }
      expect(read.stderr()).toBe('')
    },
    TEST_MS.long,
  )

  it(
    'dumps it again to the identical file, and so does a scenario file that extends it',
    async () => {
      const again = join(dir, 'again.json')
      const run = await runCli(['dump', '--data', dumped, ...LIMIT, '--out', again])
      expect(run.code, run.stderr).toBe(0)
      expect(readFileSync(again).equals(readFileSync(dumped))).toBe(true)
      // A scenario file that extends it: the same world as when the file is read whole.
      const extension = join(dir, 'extends.json')
      writeFileSync(extension, JSON.stringify({ extends: './world.json', description: 'The default world, again' }))
      const [extended, readWhole] = await Promise.all([
        runCli(['dump', '-s', extension, ...LIMIT]),
        runCli(['dump', '-s', extension]),
      ])
      expect(extended.code, extended.stderr).toBe(0)
      expect(readWhole.code, readWhole.stderr).toBe(0)
      expect(extended.stdout.split('\n')[0]).toContain('"description":"The default world, again"')
      expect(extended.stdout === readWhole.stdout).toBe(true)
    },
    TEST_MS.long,
  )

  it('refuses a file with one byte changed mid-way, naming its line and offset', async () => {
    const text = readFileSync(dumped, 'utf8')
    // A digit half-way through: another digit in its place keeps the file valid JSON.
    let at = Math.floor(text.length / 2)
    while (!/\d/.test(text[at]!)) at++
    const file = changed('edited.json', (bytes) => {
      bytes[at] = bytes[at] === 0x30 ? 0x31 : 0x30
      return bytes
    })
    const line = text.slice(0, at).split('\n').length
    expectRefused(
      await runCli(['--data', file, ...LIMIT]),
      `Failed to read --data ${file}: it differs from what its scenario (seed 20260601) makes at line ${line.toLocaleString('en')} (byte offset ${at.toLocaleString('en')}) (an edited dump over 1,000 bytes cannot be read back; a dump of at most 1,000 bytes can be edited)`,
    )
  })

  it('refuses a file cut short, and one with more after its end', async () => {
    const size = readFileSync(dumped).length
    const cut = changed('cut.json', (bytes) => bytes.subarray(0, size - 1))
    const lines = readFileSync(dumped, 'utf8').split('\n').length - 1
    expectRefused(
      await runCli(['dump', '--data', cut, ...LIMIT]),
      `Failed to read --data ${cut}: it ends at line ${lines.toLocaleString('en')} (byte offset ${(size - 1).toLocaleString('en')}) where the world its scenario (seed 20260601) makes goes on: the file is cut short`,
    )
    const longer = changed('longer.json', (bytes) => Buffer.concat([bytes, Buffer.from('\n')]))
    expectRefused(
      await runCli(['dump', '--data', longer, ...LIMIT]),
      `Failed to read --data ${longer}: it goes on at line ${(lines + 1).toLocaleString('en')} (byte offset ${size.toLocaleString('en')}) after the end of the world its scenario (seed 20260601) makes`,
    )
  })

  it('refuses a file whose head is not a dump of this version', async () => {
    const size = sized(readFileSync(dumped).length)
    const notADump = `more than the 1,000 bytes a world file may hold to be read whole, and it is not a dump as activation-emulator dump writes it (a larger world file is read back against the scenario its head names)`
    const older = changed('older.json', (bytes) => Buffer.from(bytes.toString().replace('world@2', 'world@1')))
    expectRefused(
      await runCli(['--data', older, ...LIMIT]),
      `Failed to read --data ${older}: it holds ${size}, ${notADump}; its head has format: format must be "activation-emulator/world@2" (a dump of this version, whose worlds this emulator makes)`,
    )
    const pretty = join(dir, 'pretty.json')
    writeFileSync(pretty, JSON.stringify({ format: 'activation-emulator/world@2' }, null, 2))
    expectRefused(
      await runCli(['--data', pretty, '--data-whole-limit', '10']),
      `Failed to read --data ${pretty}: it holds ${readFileSync(pretty).length} bytes, ${notADump.replace('1,000', '10')}`,
    )
  })

  it(
    'reads a recorded world over the limit as records, a line at a time (the same world as read whole), and refuses one over twice the limit',
    async () => {
      const upstream = await createEmulator({ scenario: 'every-type', now: NOW })
      const { dump } = worldFromRecording(await recordEmulator(upstream, ['every-type-key']))
      const file = join(dir, 'recorded.json')
      const text = [...worldDumpText(dump)].join('')
      writeFileSync(file, text)
      const size = readFileSync(file).length
      expectRefused(
        await runCli(['dump', '--data', file, ...LIMIT]),
        `Failed to read --data ${file}: it is a recorded world of ${sized(size)}: a recorded world is read as records, and may hold at most 2,000 bytes`,
      )
      const whole = await runCli(['dump', '--data', file])
      expect(whole.code, whole.stderr).toBe(0)
      const byLines = await runCli(['dump', '--data', file, '--data-whole-limit', String(Math.ceil(size / 2) + 1)])
      expect(byLines.code, byLines.stderr).toBe(0)
      expect(byLines.stdout).toBe(whole.stdout)
      // The same world on one line is JSON, not a dump's layout: read whole under the limit, refused over it.
      const line = JSON.stringify(JSON.parse(text))
      writeFileSync(file, line)
      const oneLine = await runCli(['dump', '--data', file, '--data-whole-limit', String(line.length - 1)])
      expect(oneLine.code).toBe(1)
      expect(oneLine.stderr).toMatch(/not a dump|not in the layout a dump writes/)
    },
    TEST_MS.long,
  )
})
