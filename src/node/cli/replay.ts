import { readFile } from 'node:fs/promises'
import { parseBundle } from '../replay/bundle-file.js'
import { replayBundle } from '../replay/replay.js'
import { readWorldFile } from '../world-file.js'
import { fileSha256 } from '../file-sha256.js'
import { serve } from '../serve-on-call.js'
import { needs, type FlagTable } from './flag-parsers.js'
import { serveFlags } from './serve-flags.js'

/** The flags of `replay`. */
export const replayFlags: FlagTable = {
  serve: {
    type: 'boolean',
    describe: 'After the replay, serve the world as it stood when the bundle was made (its clock frozen there)',
  },
  // serve's own --port (its parsing and bounds), said of --serve.
  port: { ...serveFlags['port'], describe: 'With --serve: the port to listen on; 0 picks a free one' },
  data: {
    type: 'string',
    describe: 'The world file a bundle of a served dump was made over (its records are not in the bundle)',
    coerce: needs('data', 'a file written by activation-emulator dump', (text) => text),
  },
}

export type ReplayArgs = { bundle: string; serve?: boolean; port?: number; data?: string }

/** The most characters of each body shown with a difference. */
const SHOWN_CHARS = 2000

/**
 * `activation-emulator replay <bundle>`: stands the bundle's emulator up, sends its requests in order
 * and compares every answer with the one recorded. 0 when all match; 1, naming the first request that
 * differs and how, with both bodies where the bundle kept the recorded one. With --serve, then serves
 * the world as it stood when the bundle was made, until Ctrl-C.
 */
export async function replayCommand(args: ReplayArgs): Promise<number> {
  let text: string
  try {
    text = await readFile(args.bundle, 'utf8')
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message
    throw new Error(`Failed to read the bundle ${args.bundle}: ${why}`, { cause: error })
  }
  const bundle = parseBundle(text, args.bundle)
  let data: unknown
  if (bundle.world.data !== undefined) {
    if (args.data === undefined) {
      throw new Error(`The bundle ${args.bundle} was made over a world file: give it with --data FILE`)
    }
    const file = await readWorldFile(args.data)
    if (file.head) throw new Error(`${args.data} is too large to replay a bundle over`)
    // Read first: a FIFO or a folder is refused there, before its bytes are hashed.
    const sha256 = bundle.world.data.sha256
    const given = sha256 === undefined ? undefined : await fileSha256(args.data)
    if (given !== sha256) {
      throw new Error(
        `${args.data} is not the world file the bundle ${args.bundle} was made over: its SHA-256 is ${given}, the bundle's ${sha256}`,
      )
    }
    data = file.text !== undefined ? (JSON.parse(file.text) as unknown) : file.data
  }
  const out = (line: string) => process.stdout.write(`${line}\n`)
  // With --serve, every request is sent and every change applied: the world as it stood at the end.
  const result = await replayBundle(bundle, { ...(data === undefined ? {} : { data }), all: args.serve === true })
  const { first, sent, skipped } = result
  if (!bundle.journal.complete) {
    out(
      'replay: the journal of the bundle does not begin with the first request (it dropped or cleared some): counts of rate limits and fault rules may differ',
    )
  }
  if (skipped.length)
    out(
      `replay: ${skipped.length} request(s) whose path or query the journal cut were sent but not compared: #${skipped.join(', #')}`,
    )
  let code = 0
  if (first) {
    const { request, difference } = first
    out(
      `replay: request #${request.seq} ${request.method} ${request.path}${request.search ? `?${request.search}` : ''} differs: ${difference.what}`,
    )
    if (difference.bodies) {
      out(`recorded body: ${difference.bodies.recorded.slice(0, SHOWN_CHARS)}`)
      out(`replayed body: ${difference.bodies.replayed.slice(0, SHOWN_CHARS)}`)
    } else if (difference.replayed !== undefined) {
      out(`replayed body: ${difference.replayed.slice(0, SHOWN_CHARS)}`)
    }
    code = 1
  } else {
    out(`replay: ${sent} request(s) replayed, every answer as recorded (status, error, items, headers and body)`)
  }
  if (!args.serve) return code
  // Where it stood when the bundle was made: every change applied, the clock at the bundle's instant.
  const emulator = result.emulator
  emulator.set({ now: bundle.state.clock.now })
  const server = await serve(emulator, { port: args.port ?? 4010 })
  out(
    `replay: the world as it stood at ${bundle.state.clock.now}, listening on ${server.url} (keys as the bundle names them: ${emulator.accounts.flatMap((a) => a.apiKeys).join(', ')}); Ctrl-C stops`,
  )
  await new Promise<void>((resolve) => {
    const stop = () => resolve()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  await server.close()
  return code
}
