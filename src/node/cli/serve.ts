import { setFlagsFromString } from 'node:v8'
import type { ListOrder } from '../../contract/defaults.js'
import { createEmulator } from '../../emulator/emulator.js'
import { serve } from '../server/serve.js'
import { banner } from './banner.js'
import { writeExitBundle } from './exit-bundle.js'
import { createEmulatorFor, emulatorOptions, type WorldArgs } from './emulator-options.js'
import { UsageError } from './flags.js'
import { stopWhenNpxIsGone } from './npm-parent.js'
import { LogLines } from './log-lines.js'
import { progressBar } from './progress.js'

export type ServeArgs = WorldArgs & {
  port?: number | undefined
  host?: string | undefined
  basePath?: string | undefined
  latency?: number | { min: number; max: number } | undefined
  cors?: string | false | undefined
  rateLimitHeaders?: boolean | undefined
  activationOrder?: ListOrder | undefined
  participantOrder?: ListOrder | undefined
  quiet?: boolean | undefined
  clock?: 'frozen' | 'running' | undefined
  /** --live: the clock's speed (1 for --live alone). */
  live?: number | undefined
  admin?: boolean | undefined
  adminToken?: string | undefined
  adminOrigin?: string[] | undefined
  allowedHost?: string[] | undefined
  journalSize?: number | undefined
  bodyCache?: string | undefined
  maxSandboxes?: number | undefined
  /** --sandbox-ttl as typed: a duration, checked. */
  sandboxTtl?: string | undefined
  /** --bundle-on-exit: the file a bundle is written to when the server stops (its folder checked). */
  bundleOnExit?: string | undefined
}

/** `activation-emulator [serve]`: builds the world, listens, prints the banner, logs requests, stops on a signal. */
export async function serveCommand(args: ServeArgs, version: string, started: number): Promise<void> {
  const basePath = (args.basePath ?? '').replace(/\/+$/, '')
  if (basePath && !/^\/[A-Za-z0-9._~\-/]*$/.test(basePath)) {
    throw new UsageError(`--base-path must be a path such as /v1, got ${JSON.stringify(args.basePath)}`)
  }
  const cors = args.cors ?? '*'
  if (typeof cors === 'string' && cors !== '*' && !/^https?:\/\/[^/\s]+$/.test(cors)) {
    throw new UsageError(
      `--cors must be an origin such as http://localhost:3000, or *, got ${JSON.stringify(args.cors)}`,
    )
  }
  const options = await emulatorOptions(args)
  const progress = progressBar(process.stderr, 'Building the world')
  // Entries that arrived in each activation since a page of it was last logged, and the activations
  // whose page has been logged at least once.
  const unlogged = new Map<string, number>()
  const paged = new Set<string>()
  const live =
    args.live === undefined
      ? {}
      : {
          live: true,
          clock: args.clock ?? ('running' as const),
          clockSpeed: args.live,
          onArrivals: (arrived: ReadonlyMap<string, number>) => {
            if (args.quiet) return
            for (const [id, n] of arrived) unlogged.set(id, (unlogged.get(id) ?? 0) + n)
          },
        }
  const emulator = await createEmulatorFor(
    args,
    {
      ...options,
      // The handlers see requests rewritten onto this origin; only its path matters to clients.
      baseUrl: `http://activation-emulator.local${basePath}`,
      ...(args.latency !== undefined ? { latency: args.latency } : {}),
      ...(args.rateLimitHeaders !== undefined ? { rateLimitHeaders: args.rateLimitHeaders } : {}),
      ...orderOf(args),
      ...(args.clock !== undefined ? { clock: args.clock } : {}),
      ...live,
      ...(args.adminToken !== undefined ? { adminToken: args.adminToken } : {}),
      ...(args.journalSize !== undefined ? { journalSize: args.journalSize } : {}),
      ...(args.bodyCache !== undefined ? { bodyCache: args.bodyCache } : {}),
      ...(args.maxSandboxes !== undefined ? { maxSandboxes: args.maxSandboxes } : {}),
      ...(args.sandboxTtl !== undefined ? { sandboxTtl: args.sandboxTtl } : {}),
      onProgress: args.quiet ? undefined : progress.onProgress,
    },
    createEmulator,
  )
  progress.done()
  // Under load, V8 let the old generation grow to twice the world before collecting (busy: peaks of
  // 930 to 1,070 MB); 25 % keeps it near the world's size (under 600 MB) at the cost of more frequent
  // full collections (bench/soak.ts and the README's Reliability section). Set once the world is
  // built, so that building it is not slowed down.
  setFlagsFromString('--heap-growing-percent=25')
  // The request log's lines, written together every few milliseconds (see LogLines).
  const log = new LogLines(process.stdout)
  const running = await serve(emulator, {
    host: args.host ?? '127.0.0.1',
    port: args.port ?? 4010,
    cors,
    // Off with --no-admin; else on a loopback address, or anywhere with a token.
    ...(args.admin === false ? { admin: false } : {}),
    ...(args.adminOrigin ? { adminOrigins: args.adminOrigin } : {}),
    ...(args.allowedHost ? { allowedHosts: args.allowedHost } : {}),
    onRequest: args.quiet
      ? undefined
      : (request) => {
          log.write(`${request.method} ${request.url} ${request.status} ${request.ms.toFixed(1)} ms\n`)
          if (args.live === undefined || request.status !== 200) return
          // Under a page of an activation, what arrived in it since its last page (or since the start,
          // for its first); a path that names none, or whose escapes are broken, says nothing more.
          const id = activationOfPath(request.url)
          if (id === undefined) return
          const arrived = unlogged.get(id)
          const since = paged.has(id) ? 'since its last page' : 'since the server started'
          paged.add(id)
          if (!arrived) return
          unlogged.delete(id)
          log.write(`  + ${arrived} ${arrived === 1 ? 'entry' : 'entries'} arrived in ${id} ${since}\n`)
        },
  }).catch((error: unknown) => {
    throw portInUse(error, args.host ?? '127.0.0.1', args.port ?? 4010) ?? error
  })

  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    // Exit 0 once open connections are done, and within a second whatever they do; with
    // --bundle-on-exit, once the bundle of the run, every request answered, is written.
    const closed = Promise.race([running.close(), new Promise((done) => setTimeout(done, 1000))])
    const bundled = closed.then(() =>
      args.bundleOnExit === undefined ? 0 : writeExitBundle(emulator, args.bundleOnExit),
    )
    void bundled.then((code) => process.exit(code))
  }
  // Listened for before the banner says Ctrl-C stops: a signal sent as soon as it shows finds them.
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  stopWhenNpxIsGone(stop)
  process.stdout.write(banner(emulator, running.url, version, started, cors, running.adminUrl, args.sandboxTtl))
}

/** The activation id a request path names (`/activations/<id>`, decoded), or undefined when it names none or cannot be decoded. */
function activationOfPath(url: string): string | undefined {
  const raw = /\/activations\/([^/?#]+)/.exec(url)?.[1]
  if (raw === undefined || raw === 'list' || raw === 'latest') return undefined
  try {
    return decodeURIComponent(raw)
  } catch {
    return undefined
  }
}

/** The `order` option of --activation-order and --participant-order: only the lists they name. */
function orderOf(args: ServeArgs): { order?: { activations?: ListOrder; participants?: ListOrder } } {
  if (args.activationOrder === undefined && args.participantOrder === undefined) return {}
  return {
    order: {
      ...(args.activationOrder !== undefined ? { activations: args.activationOrder } : {}),
      ...(args.participantOrder !== undefined ? { participants: args.participantOrder } : {}),
    },
  }
}

/** serve()'s port-in-use error, said to a user of the command line: with the flag that changes the port. */
function portInUse(error: unknown, host: string, port: number): Error | undefined {
  if ((error as { cause?: { code?: unknown } } | null)?.cause?.code !== 'EADDRINUSE') return undefined
  return new Error(
    `Port ${port} is already in use on ${host}: stop what holds it, or choose another with --port (--port 0 picks a free one)`,
    { cause: error },
  )
}
