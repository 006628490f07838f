import { execFileSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { scaled } from '../support/timeouts.js'

// --data names a regular file: a FIFO, a directory or a device is refused at once (a FIFO was waited on
// forever). A file over V8's longest string (about 512 MB; it failed with "Invalid string length") is
// read back against its scenario (test/cli/data-by-scenario.test.ts), or refused in one line.

/** A run that ended at once with exit 1 and exactly `line` on stderr. */
function expectRefused(run: { code: number | null; stdout: string; stderr: string }, line: string): void {
  expect(run.stderr).toBe(`activation-emulator: ${line}\n`)
  expect(run.code).toBe(1)
  expect(run.stdout).toBe('')
}

/** Runs the command line, killed after 20 s (times the factor) should it wait on what it was given (it answered within a second here). */
const run = (args: string[]) => runCli(args, {}, scaled(20_000))

describe('--data that is not a world file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ae-data-file-'))
  const fifo = join(dir, 'world.fifo')
  execFileSync('mkfifo', [fifo])

  it.each([[[]], [['dump']]])('%j refuses a FIFO instead of waiting for a writer', async (command) => {
    expectRefused(
      await run([...command, '--data', fifo]),
      `Failed to read --data ${fifo}: it is a FIFO (a named pipe), not a file`,
    )
  })

  it('refuses a directory and a device', async () => {
    expectRefused(await run(['dump', '--data', dir]), `Failed to read --data ${dir}: it is a directory, not a file`)
    expectRefused(
      await run(['dump', '--data', '/dev/null']),
      'Failed to read --data /dev/null: it is a device, not a file',
    )
  })

  it('refuses a 600 MB file that is not a dump, saying its size and the limit, after its first 16 MB', async () => {
    // Sparse: 600 MB long, next to nothing on disk. Over the limit, a dump is read back against its
    // scenario, named on its first line: no line ends in the first 16 MB, so there is no head to read.
    const big = join(dir, 'big.json')
    closeSync(openSync(big, 'w'))
    execFileSync('truncate', ['-s', '600M', big])
    expectRefused(
      await run(['--data', big]),
      `Failed to read --data ${big}: it holds 600 MB, more than the 512 MB a world file may hold to be read whole, and it is not a dump as activation-emulator dump writes it (a larger world file is read back against the scenario its head names)`,
    )
  })

  it('refuses a scenario file that extends a FIFO', async () => {
    const scenario = join(dir, 'extends-fifo.json')
    writeFileSync(scenario, JSON.stringify({ extends: './world.fifo' }))
    expectRefused(
      await run(['dump', '-s', scenario]),
      `Failed to load scenario file ${scenario}: the world it extends, ./world.fifo, cannot be read: it is a FIFO (a named pipe), not a file`,
    )
  })

  it.each([
    ['secret.json', 'hunter2 is the password\n', 'an unexpected character at line 1, column 1 (byte 0)'],
    ['binary.json', '\u0000\u0001\u0002PNG', 'an unexpected character at line 1, column 1 (byte 0)'],
    ['token.json', '{"key": "sk_live_abc",\n "b": tru}', 'an unexpected character at line 2, column 7 (byte 29)'],
    ['cut.json', '{"key": "sk_live_abc",', 'it ends at line 1, column 23 (byte 22), where more was expected'],
  ])('refuses %s, not JSON, naming where and quoting none of it', async (name, text, where) => {
    const file = join(dir, name)
    writeFileSync(file, text)
    const refused = await run(['--data', file])
    expectRefused(refused, `Failed to read --data ${file}: not JSON: ${where}`)
    for (const secret of ['hunter2', 'sk_live', 'PNG', 'tru']) expect(refused.stderr).not.toContain(secret)
  })

  it('refuses a file of tiny objects before parsing it, in one line', async () => {
    const file = join(dir, 'tiny.json')
    writeFileSync(file, `[${Array(1_000_000).fill('{}').join(',')}]`)
    const refused = await run(['--data', file])
    expect(refused.stderr).toMatch(
      /^activation-emulator: Failed to read --data \S+: it holds more than one object or array per 20 bytes \(past character [\d,]+\): not a world, whose records take about 80 bytes each\n$/,
    )
    expect(refused.code).toBe(1)
  })
})
