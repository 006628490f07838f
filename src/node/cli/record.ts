import { existsSync, readFileSync } from 'node:fs'
import { recordProgressLine } from '../record/progress.js'
import { recordWorld } from '../record/record-world.js'
import { RecordInterruptedError } from '../record/record-interrupted-error.js'
import { createRemoteClient, WaitTooLongError } from '../remote/client.js'
import { UsageError } from './flags.js'
import { remoteBounds, type RemoteBoundArgs } from './remote-bounds.js'

export type RecordArgs = RemoteBoundArgs & {
  from?: string | undefined
  apiKey?: string[] | undefined
  out?: string | undefined
  checkpoint?: string | undefined
  resume?: boolean | undefined
  restart?: boolean | undefined
  limits?: { activations: number; entries: number; participants: number } | undefined
  anonymize?: boolean | undefined
  seed?: number | undefined
  keepEmailDomains?: boolean | undefined
  keepApiKeys?: boolean | undefined
  quiet?: boolean | undefined
}

/** What `record` asks of an upstream unless told otherwise: a few requests at a time, gently. */
const RECORD_DEFAULTS = { concurrency: 4, rps: 10, retries: 5 }

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`

/**
 * `activation-emulator record`: walks each account of an upstream API through its four endpoints into
 * a checkpoint, then writes the world that `--data` serves back. Resolves to the exit code: 0 written,
 * 130 stopped by Ctrl-C (the checkpoint stays for `--resume`).
 */
export async function recordCommand(args: RecordArgs, stderr: NodeJS.WriteStream = process.stderr): Promise<number> {
  if (args.from === undefined) throw new UsageError('record needs --from: the base URL of the API to record')
  if (!args.apiKey?.length)
    throw new UsageError('record needs --api-key: a key of the account to record (one per account)')
  if (args.out === undefined) throw new UsageError('record needs --out: the world file to write')
  if (!args.anonymize && (args.seed !== undefined || args.keepEmailDomains)) {
    throw new UsageError(`${args.seed !== undefined ? '--seed' : '--keep-email-domains'} applies only with --anonymize`)
  }
  const out = args.out
  const checkpoint = args.checkpoint ?? `${out}.checkpoint`
  const rps = args.rps ?? RECORD_DEFAULTS.rps
  const concurrency = args.concurrency ?? RECORD_DEFAULTS.concurrency
  if (args.resume && args.restart) {
    throw new UsageError('--resume and --restart go against each other: give one (--restart deletes the checkpoint)')
  }
  if (!args.resume && !args.restart && existsSync(checkpoint)) {
    throw new UsageError(
      `The checkpoint ${checkpoint} already exists (an interrupted recording): add --resume to go on from it, or --restart to delete it and record afresh`,
    )
  }
  const say = (line: string) => {
    if (!args.quiet) stderr.write(`${line}\n`)
  }
  say(
    `Recording ${args.from} (${plural(args.apiKey.length, 'account')}) to ${out}: ` +
      `${rps === 0 ? 'no limit on requests/s' : `at most ${rps} requests/s`}, ${concurrency} at once; checkpoint ${checkpoint}`,
  )

  const stop = new AbortController()
  const onSigint = () => stop.abort(new Error('Ctrl-C'))
  process.once('SIGINT', onSigint)
  const progress = args.quiet ? null : recordProgressLine(stderr)
  const client = createRemoteClient({
    baseUrl: args.from,
    concurrency,
    rps: rps === 0 ? Infinity : rps,
    retries: args.retries ?? RECORD_DEFAULTS.retries,
    ...remoteBounds(args),
    signal: stop.signal,
    ...(progress ? { onEvent: progress.onEvent } : {}),
  })
  let made
  try {
    made = await recordWorld({
      client,
      apiKeys: args.apiKey,
      checkpoint,
      resume: args.resume === true,
      restart: args.restart === true,
      ...(args.limits ? { limits: args.limits } : {}),
      signal: stop.signal,
      ...(progress ? { onProgress: progress.onProgress } : {}),
      out,
      anonymize: args.anonymize
        ? { ...(args.seed === undefined ? {} : { seed: args.seed }), keepEmailDomains: args.keepEmailDomains === true }
        : null,
      keepApiKeys: args.keepApiKeys === true,
    })
  } catch (error) {
    if (error instanceof RecordInterruptedError) {
      progress?.done()
      stderr.write(
        error.pages === 0
          ? 'activation-emulator: stopped before the first page was recorded; no checkpoint is kept\n'
          : `activation-emulator: stopped; ${checkpoint} holds ${plural(error.pages, 'page')}: run the same command with --resume to go on\n`,
      )
      return 130
    }
    throw withWayOut(error, checkpoint)
  } finally {
    progress?.done()
    process.removeListener('SIGINT', onSigint)
  }
  const seconds = made.walkSeconds

  const { dump } = made
  const stats = client.stats()
  const records = dump.activations.length + dump.entries.length + dump.participants.length
  say(
    `Recorded ${plural(dump.activations.length, 'activation')}, ${plural(dump.entries.length, 'entry', 'entries')} and ` +
      `${plural(dump.participants.length, 'participant')} in ${seconds.toFixed(1)} s ` +
      `(${Math.round(records / Math.max(seconds, 0.001)).toLocaleString('en')} records/s; ${plural(stats.requests, 'request')}, ` +
      `${plural(stats.retries, 'retry', 'retries')}, ${plural(stats.waits, 'wait')} for a rate limit)` +
      `${args.anonymize ? ', anonymized' : ''}; served at ${dump.builtAt}`,
  )
  for (const line of made.unknownFields) say(`  kept a field the emulator does not know: ${line}`)
  for (const line of made.oddFields) say(`  a field in another form than the emulator's: ${line}`)
  for (const line of made.problems) say(`  not kept: ${line}`)
  const keys = dump.scenario.accounts.map((a) => `${a.apiKeys[0]} (${a.premium ? 'premium' : 'no premium'})`)
  say(`Serve it: npx activation-emulator --data ${out}   keys: ${keys.join(', ')}`)
  return 0
}

/** A failure's message with the way on: the checkpoint's pages and --resume, or (none kept) when to try again. */
function withWayOut(error: unknown, checkpoint: string): unknown {
  if (!(error instanceof Error)) return error
  const held = existsSync(checkpoint) ? readFileSync(checkpoint, 'utf8').split('\n').length - 2 : 0
  const later = error instanceof WaitTooLongError ? 'wait, then ' : ''
  const way =
    held > 0
      ? `; ${checkpoint} holds ${plural(held, 'page')}: ${later}run the same command with --resume to go on, or with --restart to record afresh`
      : error instanceof WaitTooLongError
        ? '; no page was recorded: wait, then run the same command again'
        : ''
  return new Error(`${error.message}${way}`, { cause: error })
}
