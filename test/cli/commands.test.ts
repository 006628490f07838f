import { scenarios } from '../../scenarios/index.js'
import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { BIN, cleanEnv, runCli, startCli } from '../support/cli.js'
import { spawnOwned } from '../support/processes.js'

const NOW = '2026-06-01T12:00:00Z'
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url))
const sha = (text: string) => createHash('sha256').update(text).digest('hex')

/** A failed run: exit code 1, nothing on stdout, exactly one line naming the problem, and never a stack trace. */
function expectFailure(run: { code: number | null; stdout: string; stderr: string }, message: string | RegExp): void {
  expect(run.code).toBe(1)
  expect(run.stdout).toBe('')
  expect(run.stderr).toMatch(/^activation-emulator: [^\n]+\n$/)
  if (typeof message === 'string') expect(run.stderr).toContain(message)
  else expect(run.stderr).toMatch(message)
  expect(run.stderr).not.toMatch(/^\s+at /m)
}

describe('--list-scenarios, --version, --help', () => {
  it('lists one line per built-in scenario: its name, then its description', async () => {
    const run = await runCli(['--list-scenarios'])
    expect(run.code).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(Object.keys(scenarios))
    for (const line of lines) expect(line).toMatch(/^\S+\s{2,}\S.+$/)
  })

  it('prints the version and the help', async () => {
    const pkg = JSON.parse(await readFile(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8'))
    expect((await runCli(['--version'])).stdout.trim()).toBe(pkg.version)
    const help = await runCli(['--help'])
    expect(help.code).toBe(0)
    for (const flag of [
      '--scenario',
      '--seed',
      '--now',
      '--port',
      '--host',
      '--base-path',
      '--api-key',
      '--premium',
      '--rate-limit',
      '--rate-window',
      '--latency',
      '--data',
      '--cors',
      '--quiet',
      '--rate-limit-headers',
      '--activation-order',
      '--participant-order',
      '--list-scenarios',
    ]) {
      expect(help.stdout).toContain(flag)
    }
  })

  it('prints each example of --help whole on a line of its own at 80 columns, so it can be copied', async () => {
    for (const command of [[], ['dump'], ['verify'], ['record'], ['replay']]) {
      const help = await runCli([...command, '--help'], { COLUMNS: '80' })
      expect(help.code).toBe(0)
      const lines = help.stdout.trimEnd().split('\n')
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80)
      const examples = lines.slice(lines.indexOf('Examples:') + 1)
      expect(examples.length).toBeGreaterThan(0)
      for (const [i, line] of examples.entries())
        expect(line).toMatch(i % 2 ? /^ {4}activation-emulator \S/ : /^ {2}\S.*:$/)
    }
    const help = await runCli(['--help'], { COLUMNS: '80' })
    expect(help.stdout).toContain('\n    activation-emulator -s default --now 2026-06-01T12:00:00Z --rate-limit 10\n')
  })

  it('keeps each example whole on its line in a narrower terminal (60 columns)', async () => {
    for (const command of [[], ['dump'], ['verify'], ['record'], ['openapi'], ['replay']]) {
      const help = await runCli([...command, '--help'], { COLUMNS: '60' })
      const lines = help.stdout.trimEnd().split('\n')
      const examples = lines.slice(lines.indexOf('Examples:') + 1)
      for (const [i, line] of examples.entries())
        expect(line, command.join(' ')).toMatch(i % 2 ? /^ {4}activation-emulator \S/ : /^ {2}\S.*:$/)
    }
    const record = await runCli(['record', '--help'], { COLUMNS: '60' })
    expect(record.stdout).toContain('\n    activation-emulator record --from URL --api-key KEY --anonymize -o w.json\n')
  })

  it.each([[], ['dump'], ['openapi'], ['verify'], ['record'], ['replay']])(
    'mentions in %j --help only flags that command takes, each among the options it lists',
    async (...command) => {
      const help = await runCli([...command, '--help'])
      expect(help.code).toBe(0)
      // A flag and its long alias (`--server-url, --base-url`) are listed on one line.
      const listed = new Set(
        [...help.stdout.matchAll(/^ +(?:-\w, )?--([a-z-]+)(?:, --([a-z-]+))?/gm)].flatMap((m) =>
          m[2] ? [m[1], m[2]] : [m[1]],
        ),
      )
      // `--no-x` turns a listed --x off; `activation-emulator --list-scenarios` is a whole command.
      const mentioned = [...help.stdout.matchAll(/(?<!activation-emulator )--(?:no-)?([a-z][a-z-]*)/g)].map((m) => m[1])
      expect(mentioned.length).toBeGreaterThan(listed.size)
      for (const flag of mentioned) expect(listed, `--${flag}`).toContain(flag)
    },
  )

  it('offers no --clock in dump --help, and accepts every --clock value serve --help lists', async () => {
    const dump = await runCli(['dump', '--help'])
    expect(dump.stdout).not.toContain('--clock')
    expect(dump.stdout).not.toContain('running')
    expectFailure(await runCli(['dump', '--clock', 'running']), 'Unknown option: --clock')
    const serve = await runCli(['--help'])
    const choices = /--clock\b[^[]*\[string\] \[choices: ([^\]]+)\]/.exec(serve.stdout)?.[1]
    const values = [...(choices ?? '').matchAll(/"(\w+)"/g)].map((m) => m[1]!)
    expect(values).toEqual(['frozen', 'running'])
    // --rate-window alone is refused once every flag before it was taken: the --clock value was.
    for (const value of values)
      expectFailure(await runCli(['--clock', value, '--rate-window', '30']), '--rate-window needs --rate-limit')
    expectFailure(await runCli(['--clock', 'stopped']), '--clock must be frozen or running, got "stopped"')
  })

  it('describes the flags of dump as dump uses them', async () => {
    const help = await runCli(['dump', '--help'])
    expect(help.stdout).toMatch(/--data +Read a world written by `activation-emulator dump`/)
    expect(help.stdout).not.toContain('Serve')
    expect(help.stdout).not.toMatch(/^ +--list-scenarios/m)
    expect(help.stdout).toMatch(/^ +-o, --out/m)
  })
})

describe('bad input', () => {
  it('names the available scenarios for an unknown one', async () => {
    expectFailure(
      await runCli(['--scenario', 'nope']),
      `Unknown scenario "nope": the built-in ones are ${Object.keys(scenarios).join(', ')}`,
    )
  })

  it.each(['constructor', 'toString', '__proto__'])(
    'names the available scenarios for %s, a prototype name',
    async (name) => {
      expectFailure(
        await runCli(['--scenario', name, '--now', NOW]),
        `Unknown scenario ${JSON.stringify(name)}: the built-in ones are ${Object.keys(scenarios).join(', ')}`,
      )
    },
  )

  it('names the port that is in use', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      expectFailure(
        await runCli(['-s', 'every-type', '--port', String(port)]),
        `Port ${port} is already in use on 127.0.0.1`,
      )
    } finally {
      blocker.close()
    }
  })

  it.each([
    [['--port', 'abc'], '--port must be an integer from 0 to 65535, got "abc"'],
    [['--port', '70000'], '--port must be an integer from 0 to 65535, got "70000"'],
    [['--seed', '-1'], '--seed must be an integer from 0 to 4294967295, got "-1"'],
    [['--now', 'yesterday'], '--now must be an ISO 8601 time'],
    [['--rate-limit', '0'], '--rate-limit must be an integer from 1 to 1000000, got "0"'],
    [['--rate-window', '30'], '--rate-window needs --rate-limit'],
    [
      ['--latency', '500-100'],
      '--latency must be milliseconds (250) or a range (100-400) of at most 60000, got "500-100"',
    ],
    [['--base-path', 'v1'], '--base-path must be a path such as /v1, got "v1"'],
    [['--activation-order', 'oldest'], '--activation-order must be newest-first or oldest-first, got "oldest"'],
    [['--participant-order', 'random'], '--participant-order must be oldest-first or newest-first, got "random"'],
    [['--activation-order', ''], '--activation-order needs a value: newest-first or oldest-first'],
    [['--cors', 'localhost'], '--cors must be an origin such as http://localhost:3000, or *, got "localhost"'],
    [['--live', 'fast'], '--live takes a speed such as 10x (0.001x to 1000000x), or nothing, got "fast"'],
    [['--live', '0x'], '--live takes a speed such as 10x (0.001x to 1000000x), or nothing, got "0x"'],
    [['--max-sandboxes', 'many'], '--max-sandboxes must be an integer from 0 to 1000000, got "many"'],
    [['--max-sandboxes', '2000000'], '--max-sandboxes must be an integer from 0 to 1000000, got "2000000"'],
    [
      ['--sandbox-ttl', 'soon'],
      '--sandbox-ttl must be a duration such as 15m, 2h or 90s, milliseconds, or 0 for never, of at most 365d, got "soon"',
    ],
    [
      ['--sandbox-ttl', '1 hour'],
      '--sandbox-ttl must be a duration such as 15m, 2h or 90s, milliseconds, or 0 for never, of at most 365d, got "1 hour"',
    ],
  ])('names the flag: %j', async (args, message) => {
    expectFailure(await runCli(['-s', 'every-type', ...args]), message)
  })

  it.concurrent.each([
    [['--colour', 'blue'], 'Unknown option: --colour'],
    [['--bogus'], 'Unknown option: --bogus'],
    [['--bogus=1'], 'Unknown option: --bogus'],
    [['-x'], 'Unknown option: -x'],
    [['-x', '3'], 'Unknown option: -x'],
    [['-x=3'], 'Unknown option: -x'],
    [['--bogus-flag', 'on'], 'Unknown option: --bogus-flag'],
    [['--no-bogus'], 'Unknown option: --no-bogus'],
    [['-qx'], 'Unknown option: -x'],
    [['--bogus', '-x', '--other=1', '--bogus'], 'Unknown options: --bogus, -x, --other'],
    [['dump', '--port', '4011'], 'Unknown option: --port'],
    [['openapi', '--now', NOW], 'Unknown option: --now'],
    [['--bogus', '--list-scenarios'], 'Unknown option: --bogus'],
  ])('names an unknown option as it was typed, dashes and all: %j', async (args, message) => {
    const run = await runCli(args)
    expectFailure(run, message)
    expect(run.stderr).toBe(`activation-emulator: ${message}\n`)
  })

  it('takes a short flag with its value attached (-p4010), as yargs reads it', async () => {
    expectFailure(await runCli(['-p4010', '-s', 'empty', '--rate-window', '30']), '--rate-window needs --rate-limit')
  })

  it.each([
    [['--scenario'], '--scenario needs a value: a built-in scenario or a scenario file'],
    [['--scenario', ''], '--scenario needs a value: a built-in scenario or a scenario file'],
    [['--api-key'], '--api-key needs a value: a key'],
    [['--api-key', 'k1', '--api-key', ''], '--api-key needs a value: a key'],
    [['--data'], '--data needs a value: a file written by activation-emulator dump'],
    [['--now'], '--now needs a value: an ISO time'],
    [['--port'], '--port needs a value: an integer from 0 to 65535'],
    [['--base-path'], '--base-path needs a value: a path such as /v1'],
    [['--cors'], '--cors needs a value: an origin'],
    [['dump', '--out'], '--out needs a value: a file to write'],
    [['--sandbox-ttl'], '--sandbox-ttl needs a value: a duration such as 15m, or 0 for never'],
  ])('names the flag given without a value: %j', async (args, message) => {
    expectFailure(await runCli(args), message)
  })

  it.each([
    [['--port', '4011', '--port', '4012'], '--port is given more than once: give it once'],
    [['-p', '4011', '--port=4012'], '--port is given more than once'],
    [['--scenario', 'default', '-s', 'busy'], '--scenario is given more than once'],
    [['--premium', '--no-premium'], '--premium is given more than once'],
    [['-q', '--quiet'], '--quiet is given more than once'],
    [['--cors', 'http://localhost:3000', '--no-cors'], '--cors is given more than once'],
    [['--rate-limit-headers', '--rate-limit-headers'], '--rate-limit-headers is given more than once'],
    [['dump', '--now', NOW, '--now', NOW], '--now is given more than once'],
    [['dump', '-o', 'a.json', '--out', 'b.json'], '--out is given more than once'],
  ])('says a single-valued flag is given twice: %j', async (args, message) => {
    expectFailure(await runCli(args), message)
  })

  it('names a --data file that does not exist, or --data given with a scenario', async () => {
    expectFailure(
      await runCli(['--data', '/no/such/world.json']),
      'Failed to read --data /no/such/world.json: no such file',
    )
    expectFailure(
      await runCli(['--data', 'w.json', '-s', 'busy']),
      '--data serves a whole dumped world: it takes no --scenario or --seed',
    )
  })

  it.each(['./no/such-scenario.ts', './no/such-scenario.js', 'no-such-scenario.json'])(
    'names a scenario file that is not there by the path given: %s',
    async (path) => {
      const run = await runCli(['--scenario', path])
      expectFailure(run, `Failed to load scenario file ${path}: no such file`)
      expect(run.stderr).toBe(`activation-emulator: Failed to load scenario file ${path}: no such file\n`)
    },
  )

  it('names a scenario file that does not validate, and every problem, on one line', async () => {
    const run = await runCli(['--scenario', fixture('broken-scenario.json')])
    expectFailure(
      run,
      new RegExp(
        `^activation-emulator: Invalid scenario file ${fixture('broken-scenario.json')}: seed: [^;]+; accounts\\.0\\.name: `,
      ),
    )
  })
})

describe('scenario files', () => {
  it.each([
    ['tiny-scenario.ts', 'tiny'],
    ['tiny-scenario.json', 'tiny-json'],
  ])('serves %s', async (file, name) => {
    const server = await startCli(['--scenario', fixture(file), '--now', NOW, '--quiet'])
    try {
      expect(server.stdout()).toContain(`scenario   ${name}`)
      const response = await fetch(`${server.url}/activations/latest?limit=1000`, {
        headers: { authorization: 'Api-Key tiny-key' },
      })
      expect(response.status).toBe(200)
      expect((await response.json()).entries.length).toBeGreaterThan(0)
    } finally {
      await server.stop()
    }
  })
})

describe('dump', () => {
  it('writes a byte-identical world for the same seed and --now, and another for another seed', async () => {
    const [a, b, c] = await Promise.all([
      runCli(['dump', '-s', 'every-type', '--now', NOW]),
      runCli(['dump', '-s', 'every-type', '--now', NOW]),
      runCli(['dump', '-s', 'every-type', '--now', NOW, '--seed', '9']),
    ])
    expect(a.code).toBe(0)
    expect(a.stdout.length).toBeGreaterThan(100_000)
    expect(sha(a.stdout)).toBe(sha(b.stdout))
    expect(sha(a.stdout)).not.toBe(sha(c.stdout))
    const world = JSON.parse(a.stdout)
    expect(world.format).toBe('activation-emulator/world@2')
    expect(world.builtAt).toBe('2026-06-01T12:00:00.000Z')
    expect(world.entries.length).toBeGreaterThan(1000)
  })

  it('ignores a variable set for a flag dump does not take, and still refuses that flag typed', async () => {
    const env = { ACTIVATION_EMULATOR_PORT: '4011', ACTIVATION_EMULATOR_QUIET: 'true', ACTIVATION_EMULATOR_NOW: NOW }
    const run = await runCli(['dump', '-s', 'empty'], env)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout).builtAt).toBe('2026-06-01T12:00:00.000Z')
    expectFailure(await runCli(['dump', '-s', 'empty', '--port', '4012'], env), 'Unknown option: --port')
  })

  it('writes to --out, and serves it back with --data answering the same bytes as the scenario', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'activation-emulator-'))
    const file = join(dir, 'world.json')
    expect((await runCli(['dump', '-s', 'every-type', '--now', NOW, '--out', file])).code).toBe(0)
    const [original, served] = await Promise.all([
      startCli(['-s', 'every-type', '--now', NOW, '-q']),
      startCli(['--data', file, '-q']),
    ])
    try {
      const key = { authorization: 'Api-Key every-type-key' }
      for (const path of [
        '/activations/list?limit=100',
        '/activations/latest?limit=1000',
        '/experience/participants?limit=100&start_date=2026-05-01',
      ]) {
        const [x, y] = await Promise.all([
          fetch(original.url + path, { headers: key }),
          fetch(served.url + path, { headers: key }),
        ])
        expect(await y.text(), path).toBe(await x.text())
      }
    } finally {
      await Promise.all([original.stop(), served.stop()])
    }
  })

  it('rejects a dumped world that was edited into something invalid, naming the record and field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'activation-emulator-'))
    const file = join(dir, 'world.json')
    const dump = (await runCli(['dump', '-s', 'every-type', '--now', NOW])).stdout
    const world = JSON.parse(dump)
    world.entries[3].email = 42
    delete world.activations[1].slug
    await writeFile(file, JSON.stringify(world))
    for (const command of [[], ['dump']]) {
      const run = await runCli([...command, '--data', file])
      expectFailure(run, `activation-emulator: Invalid --data ${file}: `)
      expect(run.stderr).toContain('entries[3].email')
      expect(run.stderr).toContain('activations[1].slug')
    }
  })

  it('names the --data file in every other problem it has', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'activation-emulator-'))
    const notJson = join(dir, 'not.json')
    await writeFile(notJson, '{')
    expectFailure(await runCli(['--data', notJson]), `Failed to read --data ${notJson}: not JSON`)
    expectFailure(await runCli(['dump', '--data', dir]), `Failed to read --data ${dir}: `)
    const world = JSON.parse((await runCli(['dump', '-s', 'every-type', '--now', NOW])).stdout)
    world.participants[1].id = world.participants[0].id
    const twice = join(dir, 'twice.json')
    await writeFile(twice, JSON.stringify(world))
    expectFailure(
      await runCli(['--data', twice]),
      `activation-emulator: Failed to load --data ${twice}: the participant id ${world.participants[0].id} is taken`,
    )
    const empty = join(dir, 'empty.json')
    await writeFile(empty, '{}')
    expectFailure(await runCli(['dump', '--data', empty]), `activation-emulator: Invalid --data ${empty}: format: `)
  })

  it('ends quietly with exit code 0 when the reader closes the pipe early (dump | head -1)', async () => {
    const child = spawnOwned(process.execPath, [BIN, 'dump', '-s', 'every-type', '--now', NOW], { env: cleanEnv({}) })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    // The first chunk read, the reading end of the pipe is closed while the dump still has most of its bytes to write.
    child.stdout.once('data', () => child.stdout.destroy())
    const [code] = (await once(child, 'close')) as [number | null]
    expect(stderr).toBe('')
    expect(code).toBe(0)
  })
})
