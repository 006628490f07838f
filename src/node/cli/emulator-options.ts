import { scenarios } from '../../../scenarios/index.js'
import type { Emulator, EmulatorOptions } from '../../emulator/emulator.js'
import { createEmulator, createEmulatorOfDumpHead } from '../../emulator/emulator.js'
import type { DumpHead } from '../../world/planned-dump.js'
import { isScenarioPath, loadScenarioOrWorld } from '../scenario-file.js'
import { readWorldFile, type WorldFileOptions } from '../world-file.js'
import { fileSha256 } from '../file-sha256.js'
import { jsonFault } from '../json-fault.js'
import { UsageError } from './flags.js'
import { progressBar } from './progress.js'

/** The world flags as parsed. */
export type WorldArgs = {
  scenario?: string | undefined
  seed?: number | undefined
  now?: string | undefined
  data?: string | undefined
  apiKey?: string[] | undefined
  premium?: boolean | undefined
  rateLimit?: number | undefined
  rateWindow?: number | undefined
  /** The most bytes of a world file read whole (hidden --data-whole-limit, for tests); a larger one is read back against its scenario. */
  dataWholeLimit?: number | undefined
}

/**
 * `createEmulator` options, and the head of a dump too large to read whole, which stands for its
 * `data` (see `readWorldFile`): `createEmulatorFor` makes its emulator.
 */
export type WorldOptions = EmulatorOptions & { dumpHead?: DumpHead }

/**
 * Turns the world flags into `createEmulator` options, loading a scenario file or a dumped world. A
 * world file too large to read whole is read back against its scenario here, with a progress bar.
 */
export async function emulatorOptions(args: WorldArgs): Promise<WorldOptions> {
  const options: WorldOptions = {}
  const reading = (path: string): WorldFileOptions & { done: () => void } => {
    const bar = progressBar(process.stderr, `Reading ${path} back against its scenario`, 'MB', 2 ** 20)
    return { wholeLimit: args.dataWholeLimit, onProgress: bar.onProgress, done: bar.done }
  }
  if (args.data !== undefined) {
    if (args.scenario !== undefined || args.seed !== undefined) {
      throw new UsageError('--data serves a whole dumped world: it takes no --scenario or --seed')
    }
    const progress = reading(args.data)
    let text: string | undefined
    try {
      const read = await readWorldFile(args.data, progress)
      if (read.head) options.dumpHead = read.head
      if (read.data) options.data = read.data
      text = read.text
      // The file's own name for a bundle, which `replay --data` checks; a dump read back against its scenario is that scenario's world.
      if (!read.head) options.dataSha256 = await fileSha256(args.data)
    } catch (error) {
      throw new UsageError(`Failed to read --data ${args.data}: ${(error as Error).message}`)
    } finally {
      progress.done()
    }
    try {
      if (text !== undefined) options.data = JSON.parse(text)
    } catch (error) {
      throw new UsageError(`Failed to read --data ${args.data}: not JSON: ${await jsonFault(text!, error)}`)
    }
  } else {
    // A built-in's name goes to the library as it is, which names the built-ins when it knows no such one.
    const name = args.scenario ?? 'default'
    if (isScenarioPath(name) && !Object.hasOwn(scenarios, name)) {
      const progress = reading(name)
      const loaded = await loadScenarioOrWorld(name, progress).finally(progress.done)
      options.scenario = loaded.scenario
      if (loaded.data !== undefined || loaded.head !== undefined) {
        if (args.seed !== undefined) throw new UsageError(`--seed does not apply: ${name} extends a dumped world`)
        if (loaded.head) options.dumpHead = loaded.head
        else options.data = loaded.data
      }
    } else options.scenario = name
  }
  if (args.seed !== undefined) options.seed = args.seed
  if (args.now !== undefined) options.now = args.now
  if (args.apiKey !== undefined) options.apiKeys = args.apiKey
  if (args.premium !== undefined) options.premium = args.premium
  if (args.rateWindow !== undefined && args.rateLimit === undefined)
    throw new UsageError('--rate-window needs --rate-limit')
  if (args.rateLimit !== undefined) options.rateLimit = { limit: args.rateLimit, windowSeconds: args.rateWindow ?? 60 }
  return options
}

/**
 * `createEmulator` (or `create`), with the --data file named in whatever it finds wrong with the world that file
 * holds (the library knows the parsed JSON, not where it came from).
 */
export async function createEmulatorFor(
  args: WorldArgs,
  { dumpHead, ...options }: WorldOptions,
  create: (options: EmulatorOptions) => Promise<Emulator> = createEmulator,
): Promise<Emulator> {
  try {
    return await (dumpHead ? createEmulatorOfDumpHead(dumpHead, options) : create(options))
  } catch (error) {
    if (args.data === undefined) throw error
    const message = (error as Error).message
    const invalid = message.startsWith('Invalid data:')
    const reason = message.replace(/^(?:Invalid data|Failed to load the world):\s*/, '')
    throw new Error(`${invalid ? 'Invalid' : 'Failed to load'} --data ${args.data}: ${reason}`, { cause: error })
  }
}
