import { rm } from 'node:fs/promises'
import { anonymizeRecording, type AnonymizeOptions } from '../../world/anonymize.js'
import { parseWorldDump, worldDumpText } from '../../world/dump.js'
import { worldFromRecording } from '../../world/from-recording.js'
import type { RecordedWorld } from '../../world/recorded-world-builder.js'
import { writeFileAtomically } from '../atomic-write.js'
import type { RecordOptions } from './record-options.js'
import { recordAccounts } from './recorder.js'

/** What recordWorld needs: the walker's options, and what to make of the recording. */
export type RecordWorldOptions = RecordOptions & {
  /** The world file to write. */
  out: string
  /** Replace personal data with seeded fakes (anonymizeRecording), or not (null, the default). */
  anonymize?: AnonymizeOptions | null
  /** Write the recorded API keys into the world instead of `recorded-key-N`. */
  keepApiKeys?: boolean
}

/**
 * Records the accounts (recordAccounts), anonymizes them on request, turns them into a world, checks it
 * as `--data` will, writes it to `out` (beside it first, then renamed: an interrupted write leaves no
 * half a world) and removes the checkpoint. Resolves to the world made and how long the walk took.
 * @example const { dump } = await recordWorld({ client, apiKeys: ['KEY'], checkpoint: 'w.json.checkpoint', out: 'w.json' })
 */
export async function recordWorld(options: RecordWorldOptions): Promise<RecordedWorld & { walkSeconds: number }> {
  const started = performance.now()
  const recording = await recordAccounts(options)
  const walkSeconds = (performance.now() - started) / 1000
  let made: RecordedWorld
  try {
    const recorded = options.anonymize ? anonymizeRecording(recording, options.anonymize) : recording
    made = worldFromRecording(recorded, { keepApiKeys: options.keepApiKeys === true })
  } catch (error) {
    // A record of a shape the builder did not foresee: said as ours, not as the engine's TypeError.
    if (!(error instanceof TypeError || error instanceof RangeError)) throw error
    throw new Error(
      `Failed to make a world of what ${recording.from} sent: a recorded record has a shape the emulator cannot read; ${options.checkpoint} keeps every page`,
      { cause: error },
    )
  }
  parseWorldDump(made.dump, `the world recorded from ${recording.from}`)
  try {
    await writeFileAtomically(options.out, worldDumpText(made.dump))
  } catch (error) {
    throw new Error(`Failed to write the world to ${options.out}: ${(error as Error).message}`, { cause: error })
  }
  await rm(options.checkpoint, { force: true })
  return { ...made, walkSeconds }
}
