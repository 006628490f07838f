import { readFile, writeFile } from 'node:fs/promises'
import { scenarios } from '../../../scenarios/index.js'
import { extendScenario, resolveScenario } from '../../world/resolve-scenario.js'
import { parseScenario, type Scenario, type ScenarioExtension } from '../../world/scenario.js'
import { isScenarioPath, loadScenarioOrWorld } from '../scenario-file.js'
import { expectedOf } from '../verify/expected.js'
import { jsonReport, markdownReport, planLine } from '../verify/report.js'
import { suggestedScenario, type VerifiedScenario } from '../verify/suggest.js'
import { fixesOf, planOf, verifyApi } from '../verify/verify.js'
import { verifyProgressLine } from '../verify/progress.js'
import { UsageError } from './flags.js'
import { remoteBounds, type RemoteBoundArgs } from './remote-bounds.js'

/** The flags of `verify` as parsed. */
export type VerifyArgs = RemoteBoundArgs & {
  against?: string | undefined
  apiKey?: string[] | undefined
  json?: string | undefined
  suggestConfig?: string | undefined
  maxRequests?: number | undefined
  scenario?: string | undefined
}

/** Where `--suggest-config` writes when it is given no file. */
const DEFAULT_SUGGESTION_FILE = 'verified-scenario.json'

/** The scenario the emulator's settings come from: a built-in's name or a scenario file. */
async function verifiedScenario(name: string): Promise<VerifiedScenario> {
  if (!isScenarioPath(name) || Object.hasOwn(scenarios, name)) return { builtIn: name, scenario: resolveScenario(name) }
  const loaded = await loadScenarioOrWorld(name)
  // A scenario file that extends a recorded (or dumped) world: the world's scenario with its changes.
  const scenario =
    loaded.data === undefined && loaded.head === undefined
      ? (loaded.scenario as Scenario)
      : extendScenario(
          loaded.head?.scenario ??
            parseScenario((loaded.data as { scenario?: unknown }).scenario, `the world ${name} extends`),
          loaded.scenario as ScenarioExtension,
          `scenario file ${name}`,
        )
  const raw = name.endsWith('.json') ? (JSON.parse(await readFile(name, 'utf8')) as unknown) : null
  return { file: name, raw, scenario }
}

/** Writes a file, or throws naming the file and why. */
async function write(file: string, text: string, what: string): Promise<void> {
  try {
    await writeFile(file, text)
  } catch (error) {
    throw new Error(`Failed to write ${what} to ${file}: ${(error as Error).message}`, { cause: error })
  }
}

/**
 * `activation-emulator verify`: checks the emulator's assumptions against a real API and prints the
 * report as Markdown; resolves to the exit code: 0 when every checkable assumption is confirmed, 1 when one differs.
 */
export async function verifyCommand(args: VerifyArgs): Promise<number> {
  if (args.against === undefined)
    throw new UsageError('verify needs --against URL: the base URL of the real API, such as https://api.example.com')
  if (args.apiKey === undefined) throw new UsageError('verify needs --api-key KEY: an API key of the real account')
  const verified = await verifiedScenario(args.scenario ?? 'default')
  const stop = new AbortController()
  const onSignal = () => stop.abort(new Error('verify was interrupted (SIGINT)'))
  process.once('SIGINT', onSignal)
  const progress = verifyProgressLine(process.stderr, planOf(args.maxRequests).probeCount)
  try {
    const report = await verifyApi({
      baseUrl: args.against,
      apiKeys: args.apiKey,
      expected: expectedOf(verified.scenario),
      signal: stop.signal,
      ...(args.maxRequests !== undefined ? { maxRequests: args.maxRequests } : {}),
      ...(args.rps !== undefined ? { rps: args.rps === 0 ? Infinity : args.rps } : {}),
      ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
      bounds: { ...(args.retries !== undefined ? { retries: args.retries } : {}), ...remoteBounds(args) },
      onPlan: (plan) => process.stderr.write(`${planLine(plan)}\n`),
      onEvent: progress.onEvent,
      onResult: progress.onResult,
    })
    process.stdout.write(markdownReport(report))
    if (args.json !== undefined) await write(args.json, jsonReport(report), 'the report')
    if (args.suggestConfig !== undefined) {
      const file = args.suggestConfig || DEFAULT_SUGGESTION_FILE
      const suggestion = suggestedScenario(verified, fixesOf(report), args.against)
      await write(file, `${JSON.stringify(suggestion, null, 2)}\n`, 'the suggested scenario')
      process.stderr.write(
        `Wrote the scenario that matches what was found to ${file}: serve it with activation-emulator --scenario ${file}\n`,
      )
    }
    return report.counts.differs > 0 ? 1 : 0
  } finally {
    progress.done()
    process.off('SIGINT', onSignal)
  }
}
