import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import yargs from 'yargs'
import { scenarios } from '../../scenarios/index.js'
import { dumpCommand, type DumpArgs } from './dump.js'
import { integer, parseLatency, UsageError, worldFlags } from './flags.js'
import { serveCommand, type ServeArgs } from './serve.js'

/** The package's version, from the package.json above this file (in src/ or in dist/src/). */
function version(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 5; i++, dir = dirname(dir)) {
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

/**
 * Runs the command line with its arguments (after the program name). Resolves to the exit code for
 * commands that end (dump, --help, errors); `serve` keeps running until a signal.
 */
export async function run(argv: string[], started = performance.now()): Promise<number> {
  const v = version()
  const cli = yargs(argv)
    .scriptName('activation-emulator')
    .env('ACTIVATION_EMULATOR')
    .strict()
    .version(v)
    .alias('version', 'v')
    .help()
    .alias('help', 'h')
    .wrap(Math.min(110, process.stdout.columns || 110))
    .option('list-scenarios', { type: 'boolean', describe: 'List the built-in scenarios and exit' })
    .middleware((args) => {
      if (args['listScenarios']) {
        process.stdout.write(scenarioList())
        throw new ListedScenarios()
      }
    }, true)
    .command(
      ['serve', '$0'],
      'Serve the Activation Data API (the default command)',
      (y) =>
        worldFlags(y)
          .option('port', {
            alias: 'p',
            type: 'string',
            default: '4010',
            describe: 'Port to listen on; 0 picks a free one',
            coerce: integer('port', 0, 65535),
          })
          .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' })
          .option('base-path', {
            type: 'string',
            describe: 'Serve the API under this path, e.g. /v1 (default: the root)',
          })
          .option('latency', {
            type: 'string',
            describe: 'Delay every answer: MS, or MIN-MAX for a seeded draw',
            coerce: parseLatency,
          })
          .option('cors', {
            type: 'string',
            describe: 'Allow this origin only (default: any origin); --no-cors turns CORS off',
          })
          .option('quiet', { alias: 'q', type: 'boolean', describe: 'No progress bar and no request log' })
          .example('$0 --scenario busy', 'Serve the busy scenario on http://127.0.0.1:4010')
          .example(
            '$0 -s default --now 2026-06-01T12:00:00Z --rate-limit 10',
            'A frozen clock and 10 requests a minute per key',
          ),
      async (args) => serveCommand(args as unknown as ServeArgs, v, started),
    )
    .command(
      'dump',
      'Write the world (the same flags build it) as JSON',
      (y) =>
        worldFlags(y).option('out', { alias: 'o', type: 'string', describe: 'Write to this file instead of stdout' }),
      async (args) => dumpCommand(args as unknown as DumpArgs),
    )
    .fail((message, error) => {
      throw error ?? new UsageError(message)
    })
  try {
    await cli.parseAsync()
    return 0
  } catch (error) {
    if (error instanceof ListedScenarios) return 0
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`activation-emulator: ${message.replace(/\n\s*/g, '; ')}\n`)
    if (error instanceof UsageError) process.stderr.write('Run activation-emulator --help for the flags.\n')
    return 1
  }
}

class ListedScenarios extends Error {}
