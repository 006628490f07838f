import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'

// What the user typed, named as typed: a scenario name near a built-in one, a variable that is no
// flag's, and a bad value that came from a variable rather than from a flag.

const NOW = '2026-06-01T12:00:00Z'
const SCENARIOS =
  'the built-in ones are default, empty, every-type, busy, edge-cases, no-premium, rate-limited, multi-account, unstable, undocumented-types'

describe('the command line, given a misspelling', () => {
  it.concurrent.each([
    [['--scenario', 'defualt'], `Unknown scenario "defualt" (did you mean "default"?): ${SCENARIOS}`],
    [['dump', '-s', 'emty', '--now', NOW], `Unknown scenario "emty" (did you mean "empty"?): ${SCENARIOS}`],
    [['--scenario', 'nothing-like-it'], `Unknown scenario "nothing-like-it": ${SCENARIOS}`],
  ])('suggests the scenario meant: %j', async (args, message) => {
    const run = await runCli(args)
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(`activation-emulator: ${message}\n`)
  })

  it('names ACTIVATION_EMULATOR_PORT=abc as that variable, and --port abc as the flag', async () => {
    const fromVariable = await runCli([], { ACTIVATION_EMULATOR_PORT: 'abc' })
    expect(fromVariable.code).toBe(1)
    expect(fromVariable.stderr).toBe(
      'activation-emulator: ACTIVATION_EMULATOR_PORT must be an integer from 0 to 65535, got "abc"\n',
    )
    const typed = await runCli(['-p', 'abc'], { ACTIVATION_EMULATOR_PORT: '4011' })
    expect(typed.stderr).toBe('activation-emulator: --port must be an integer from 0 to 65535, got "abc"\n')
    const seed = await runCli(['dump', '--now', NOW], { ACTIVATION_EMULATOR_SEED: '-1' })
    expect(seed.stderr).toBe(
      'activation-emulator: ACTIVATION_EMULATOR_SEED must be an integer from 0 to 4294967295, got "-1"\n',
    )
  })

  it('warns, one line each, of an ACTIVATION_EMULATOR_ variable that is no flag, and does the work', async () => {
    const run = await runCli(['dump', '-s', 'empty', '--now', NOW], {
      ACTIVATION_EMULATOR_PROT: '4011',
      ACTIVATION_EMULATOR_COLOUR: 'blue',
      // Every command's variables are known, whichever runs, and so is the helpers' URL.
      ACTIVATION_EMULATOR_PORT: '4011',
      ACTIVATION_EMULATOR_URL: 'http://127.0.0.1:4010',
    })
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^\{"format":"activation-emulator\/world@2"/)
    expect(run.stderr.split('\n').sort()).toEqual([
      '',
      "activation-emulator: ACTIVATION_EMULATOR_COLOUR is no flag's variable: ignored",
      "activation-emulator: ACTIVATION_EMULATOR_PROT is no flag's variable: ignored (did you mean ACTIVATION_EMULATOR_PORT?)",
    ])
  })
})
