import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { dumpFlags, recordFlags, serveFlags, type FlagTable } from '../../src/node/cli/flags.js'
import { runCli, startCli, type CliServer } from '../support/cli.js'
import { scaled, TEST_MS } from '../support/timeouts.js'

// A yes-or-no flag or variable takes 1/0, true/false, yes/no, on/off in any case, and refuses anything
// else in one line naming it; yargs alone read `--quiet=1` and ACTIVATION_EMULATOR_QUIET=1 as false.

const NOW = '2026-06-01T12:00:00Z'
const SPELLINGS = '1/0, true/false, yes/no or on/off (any case)'

/** The yes-or-no flags of a command's table. */
const booleansOf = (flags: FlagTable) => Object.keys(flags).filter((flag) => flags[flag]!.type === 'boolean')
const variableOf = (flag: string) => `ACTIVATION_EMULATOR_${flag.toUpperCase().replaceAll('-', '_')}`

/** A refusal: exit 1, nothing on stdout, one line on stderr naming `what`, the value and the spellings. */
function expectRefused(run: { code: number | null; stdout: string; stderr: string }, what: string, value: string) {
  expect(run.stderr).toBe(`activation-emulator: ${what} takes ${SPELLINGS}, got ${JSON.stringify(value)}\n`)
  expect(run.code).toBe(1)
  expect(run.stdout).toBe('')
}

/** A scenario file like `empty` (one account, no activations) whose account's premium is off. */
let withoutPremium: string
beforeAll(() => {
  withoutPremium = join(mkdtempSync(join(tmpdir(), 'ae-booleans-')), 'without-premium.json')
  const account = { name: 'a', apiKeys: ['k'], premium: false, people: 1, activations: [] }
  writeFileSync(
    withoutPremium,
    JSON.stringify({ name: 'without-premium', description: '-', seed: 1, accounts: [account] }),
  )
})

/** Whether the premium flag of the dumped world's first account is on: built from `empty` (premium on) or `withoutPremium`. */
async function dumpedPremium(from: 'on' | 'off', args: string[], env: Record<string, string> = {}): Promise<boolean> {
  const run = await runCli(['dump', '-s', from === 'on' ? 'empty' : withoutPremium, '--now', NOW, ...args], env)
  expect(run.stderr).toBe('')
  return JSON.parse(run.stdout).scenario.accounts[0].premium
}

describe('yes-or-no flags and variables', () => {
  let server: CliServer | undefined
  afterEach(async () => {
    await server?.stop()
    server = undefined
  })

  it.each([
    [['--quiet=1'], {}, false],
    [['--quiet=YES'], {}, false],
    [['-q=on'], {}, false],
    [[], { ACTIVATION_EMULATOR_QUIET: '1' }, false],
    [[], { ACTIVATION_EMULATOR_QUIET: 'yes' }, false],
    [[], { ACTIVATION_EMULATOR_QUIET: 'True' }, false],
    [['--quiet=0'], {}, true],
    [['--quiet=off'], { ACTIVATION_EMULATOR_QUIET: '1' }, true],
    [['--no-quiet'], { ACTIVATION_EMULATOR_QUIET: '1' }, true],
    [[], { ACTIVATION_EMULATOR_QUIET: 'No' }, true],
  ] as const)('serve %j with %j logs requests: %s', async (args, env, logs) => {
    const started = (server = await startCli(['-s', 'empty', ...args], env))
    expect((await fetch(`${started.url}/activations/list`)).status).toBe(401)
    // Stopped, the process has written all it will: the request's log line, or nothing.
    server = undefined
    expect((await started.stop()).code).toBe(0)
    expect(/^GET \/activations\/list 401 /m.test(started.stdout())).toBe(logs)
  })

  it.each([
    ['no', false],
    ['OFF', false],
    ['0', false],
    ['false', false],
    ['yes', true],
    ['On', true],
    ['1', true],
    ['TRUE', true],
  ])('dump reads ACTIVATION_EMULATOR_PREMIUM=%s as premium %s', async (value, premium) => {
    // Built from the account whose premium is the other way, so that the variable is seen to change it.
    expect(await dumpedPremium(premium ? 'off' : 'on', [], { ACTIVATION_EMULATOR_PREMIUM: value })).toBe(premium)
  })

  it('reads --premium=VALUE, and a flag typed wins over its variable', async () => {
    expect(await dumpedPremium('off', ['--premium=yes'])).toBe(true)
    expect(await dumpedPremium('on', ['--premium=FALSE'], { ACTIVATION_EMULATOR_PREMIUM: 'yes' })).toBe(false)
    expect(await dumpedPremium('off', ['--premium'], { ACTIVATION_EMULATOR_PREMIUM: 'no' })).toBe(true)
  })

  it('refuses ACTIVATION_EMULATOR_PREMIUM=bogus instead of turning premium off', async () => {
    expectRefused(
      await runCli(['dump', '-s', 'empty'], { ACTIVATION_EMULATOR_PREMIUM: 'bogus' }),
      'ACTIVATION_EMULATOR_PREMIUM',
      'bogus',
    )
  })

  const commands = [
    ['serve', serveFlags],
    ['dump', dumpFlags],
    ['record', recordFlags],
  ] as const
  it.each(commands.flatMap(([command, flags]) => booleansOf(flags).map((flag) => [command, flag] as const)))(
    '%s refuses --%s=maybe and its variable set to maybe, in one line',
    async (command, flag) => {
      expectRefused(await runCli([command, `--${flag}=maybe`], {}, scaled(25_000)), `--${flag}`, 'maybe')
      expectRefused(await runCli([command], { [variableOf(flag)]: 'maybe' }, scaled(25_000)), variableOf(flag), 'maybe')
    },
    // Two runs, each killed after 25 s (times the factor) should one serve instead of refusing.
    TEST_MS.default,
  )

  it('refuses an empty variable, a -q with another value, and a value after --no-', async () => {
    expectRefused(
      await runCli(['--list-scenarios'], { ACTIVATION_EMULATOR_QUIET: '' }),
      'ACTIVATION_EMULATOR_QUIET',
      '',
    )
    expectRefused(await runCli(['-q=2']), '-q', '2')
    const negated = await runCli(['--no-quiet=1'])
    expect(negated.stderr).toBe(
      'activation-emulator: --no-quiet takes no value: type --quiet=no, or --no-quiet alone\n',
    )
    expect(negated.code).toBe(1)
  })

  it('lists the scenarios for --list-scenarios=1 and ACTIVATION_EMULATOR_LIST_SCENARIOS=on, not for =0', async () => {
    for (const [args, env] of [
      [['--list-scenarios=1'], {}],
      [[], { ACTIVATION_EMULATOR_LIST_SCENARIOS: 'on' }],
    ] as const) {
      const run = await runCli([...args], env)
      expect(run.code).toBe(0)
      expect(run.stdout).toMatch(/^default +/)
    }
    // Not listing, it serves.
    server = await startCli(['-s', 'empty'], { ACTIVATION_EMULATOR_LIST_SCENARIOS: '0' })
    expect(server.stdout()).not.toMatch(/^default +/m)
  })
})
