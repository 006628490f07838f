import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import yargs, { type Argv } from 'yargs'
import { scenarios } from '../../../scenarios/index.js'
import { readBooleans } from './booleans.js'
import { dumpCommand, type DumpArgs } from './dump.js'
import {
  dumpFlags,
  ignoreOtherCommandsVariables,
  openApiFlags,
  recordFlags,
  rejectRepeats,
  rejectUnknown,
  serveFlags,
  UsageError,
  verifyFlags,
  type FlagTable,
} from './flags.js'
import { namedAsGiven, unknownVariables } from './env-variables.js'
import { typedNames } from './flag-checks.js'
import { openApiCommand, type OpenApiArgs } from './openapi.js'
import { recordCommand, type RecordArgs } from './record.js'
import { replayCommand, replayFlags, type ReplayArgs } from './replay.js'
import { serveCommand, type ServeArgs } from './serve.js'
import { verifyCommand, type VerifyArgs } from './verify.js'

/** The package's version, from the package.json above this file (in src/node/cli/ or in dist/src/node/cli/). */
function version(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 6; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'activation-emulator' && pkg.version) return pkg.version
    } catch {
      // not here: look one folder up
    }
  }
  return 'unknown'
}

/** One line per built-in scenario: its name, then its one-line description. */
export function scenarioList(): string {
  const entries = Object.entries(scenarios)
  const width = Math.max(...entries.map(([name]) => name.length))
  return entries.map(([name, s]) => `${name.padEnd(width)}  ${s.description}`).join('\n') + '\n'
}

/** The width --help fits: the terminal's, else COLUMNS, else 80; at most 110. */
function terminalWidth(): number {
  return Math.min(110, process.stdout.columns || Number(process.env['COLUMNS']) || 80)
}

/**
 * A command's --help with its examples, each command on a line of its own under what it does (yargs's
 * two-column examples wrap mid-command at 80 columns); the help is as wide as the terminal, or as its
 * widest example where the terminal is narrower, so that no example is cut in two.
 */
function withExamples<T>(y: Argv<T>, list: Array<[what: string, command: string]>): Argv<T> {
  const lines = ['Examples:', ...list.flatMap(([what, command]) => [`  ${what}:`, `    ${command}`])]
  // $0 is written out by yargs as the program's name.
  const widest = Math.max(...lines.map((line) => line.replace('$0', 'activation-emulator').length))
  return y.epilogue(lines.join('\n')).wrap(Math.max(terminalWidth(), widest))
}

/**
 * One line for stderr from an error's message: a library's multi-line list of problems
 * (`Invalid x:\n  a\n  b`) reads `Invalid x: a; b`.
 */
function oneLine(message: string): string {
  return message
    .trim()
    .replace(/:\s*\n\s*/g, ': ')
    .replace(/\s*\n\s*/g, '; ')
}

/**
 * Runs the command line with its arguments (after the program name). Resolves to the exit code for
 * commands that end (dump, --help, errors); `serve` keeps running until a signal.
 */
export async function run(argv: string[], started = performance.now()): Promise<number> {
  const v = version()
  const tables = [serveFlags, dumpFlags, recordFlags, verifyFlags, openApiFlags, replayFlags]
  for (const line of unknownVariables(process.env, tables)) process.stderr.write(`activation-emulator: ${line}\n`)
  // What a command that ends with a verdict (verify) resolves to; 0 for the others.
  let code = 0
  // What every command does to its flags before yargs reads them.
  const flagsOf = <T>(y: Argv<T>, flags: FlagTable) => {
    rejectUnknown(argv, flags)
    rejectRepeats(argv, flags)
    return y
      .options(flags)
      .middleware(ignoreOtherCommandsVariables(argv, flags), true)
      .middleware(readBooleans(argv, flags), true)
  }
  const cli = yargs(argv)
    .scriptName('activation-emulator')
    .env('ACTIVATION_EMULATOR')
    .strict()
    .version(v)
    .alias('version', 'v')
    .help()
    .alias('help', 'h')
    .wrap(terminalWidth())
    .command(
      ['serve', '$0'],
      'Serve the Activation Data API (the default command)',
      (y) =>
        withExamples(
          flagsOf(y, serveFlags).middleware((args) => {
            if (args['listScenarios']) {
              process.stdout.write(scenarioList())
              throw new ListedScenarios()
            }
          }, true),
          [
            ['Serve the busy scenario on http://127.0.0.1:4010', '$0 --scenario busy'],
            [
              'A frozen clock and 10 requests a minute per key',
              '$0 -s default --now 2026-06-01T12:00:00Z --rate-limit 10',
            ],
            ['Serve a world dumped to a file', '$0 --data world.json'],
          ],
        ),
      async (args) => serveCommand(args as unknown as ServeArgs, v, started),
    )
    .command(
      'dump',
      'Write the world (the same flags build it) as JSON',
      (y) =>
        withExamples(flagsOf(y, dumpFlags), [
          ['Write the default world, clock frozen, to a file', '$0 dump --now 2026-06-01T12:00:00Z -o world.json'],
          ['A world from a scenario file, to stdout', '$0 dump -s ./my-scenario.ts --now 2026-06-01T12:00:00Z'],
        ]),
      async (args) => dumpCommand(args as unknown as DumpArgs),
    )
    .command(
      'record',
      'Record accounts of a real API into a world file that --data serves back',
      (y) =>
        withExamples(flagsOf(y, recordFlags), [
          ['Record one account', '$0 record --from URL --api-key KEY -o world.json'],
          ['Two accounts', '$0 record --from URL --api-key K1 --api-key K2 -o w.json'],
          ['Anonymized: fake names, e-mails and answers', '$0 record --from URL --api-key KEY --anonymize -o w.json'],
          ['Gently: 2 requests a second', '$0 record --from URL --api-key KEY --rps 2 -o w.json'],
          ['Go on after Ctrl-C or a crash', '$0 record --from URL --api-key KEY -o world.json --resume'],
          ['Serve what was recorded', '$0 --data world.json'],
        ]),
      async (args) => {
        const code = await recordCommand(args as unknown as RecordArgs)
        if (code !== 0) throw new ExitCode(code)
      },
    )
    .command(
      'openapi',
      'Print the OpenAPI 3.1 document of the API, generated from the contract',
      (y) =>
        withExamples(flagsOf(y, openApiFlags), [
          ['Write the document to a file', '$0 openapi -o activation-data-api.json'],
          ['The document of a standalone server', '$0 openapi --server-url http://127.0.0.1:4010'],
        ]),
      async (args) => openApiCommand(args as unknown as OpenApiArgs, v),
    )
    .command(
      'verify',
      "Check the emulator's assumptions against the real API (read-only) and report each: confirmed, differs, not checkable",
      (y) =>
        withExamples(flagsOf(y, verifyFlags), [
          ['Verify, with a JSON report for machines', '$0 verify --against URL --api-key KEY --json report.json'],
          ['Write the scenario that matches what was found', '$0 verify --against URL --api-key KEY --suggest-config'],
          ['Compare with the settings of a scenario file', '$0 verify --against URL --api-key KEY -s my-scenario.json'],
        ]),
      async (args) => {
        code = await verifyCommand(args as unknown as VerifyArgs)
      },
    )
    .command(
      'replay <bundle>',
      'Stand a bundle (GET /__emulator/bundle, emulator.bundle()) up again and compare every answer with the one recorded',
      (y) =>
        withExamples(
          flagsOf(y, replayFlags).positional('bundle', { type: 'string', describe: 'The bundle file' }),
          [
            ['Replay a bundle: exit 1 at the first answer that differs', '$0 replay bundle.json'],
            ['Then serve the world as it stood when the bundle was made', '$0 replay bundle.json --serve --port 4010'],
          ],
        ),
      async (args) => {
        code = await replayCommand(args as unknown as ReplayArgs)
      },
    )
    .fail((message, error) => {
      throw error ?? new UsageError(message)
    })
  try {
    await cli.parseAsync()
    return code
  } catch (error) {
    if (error instanceof ListedScenarios) return 0
    if (error instanceof ExitCode) return error.code
    const message = namedAsGiven(
      error instanceof Error ? error.message : String(error),
      typedNames(argv),
      process.env,
      tables,
    )
    process.stderr.write(`activation-emulator: ${oneLine(message)}\n`)
    return 1
  }
}

class ListedScenarios extends Error {}

/** A command that ended with a code of its own, having said why. */
class ExitCode extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`)
  }
}
