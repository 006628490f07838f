import { EmulatorError } from '../contract/emulator-error.js'
import { recordedInstant } from './recorded-instant.js'
import { RecordedWorldBuilder, type RecordedWorld } from './recorded-world-builder.js'
import type { Recording } from './recording.js'

// A recording (every page an upstream sent) turned into a world that serves the same pages back.
// The API sends less than the store keeps, so some of the store's fields are rebuilt from what it
// does send: an activation's account (the key it was read with) and set-up (prizes, questions,
// choices, bracket: from its entries, and its question count from the is_winner / is_completed pages),
// an entry's participant (joined by e-mail) and, for trivia and pick'em, whether it answered every
// question (from the is_completed pages). Whatever the upstream sent that the emulator does not know,
// or sent in another form, is kept on the record (`recorded`) and served back as it was sent.

export type WorldFromRecordingOptions = {
  /** Write the recorded API keys into the world (default: `recorded-key-1`, `recorded-key-2`... one per account). */
  keepApiKeys?: boolean
  /** The instant the world is served at; by default the latest the recording allows (see `recordedInstant`). */
  builtAt?: string
}

/**
 * Turns a recording into a world that `--data` serves: every page recorded, asked again at the
 * recorded `limit`, comes back with the same JSON, field for field and in the same order.
 * @example const { dump } = worldFromRecording(recording); await writeFile('world.json', JSON.stringify(dump))
 */
export function worldFromRecording(recording: Recording, options: WorldFromRecordingOptions = {}): RecordedWorld {
  if (recording.accounts.length === 0) throw new EmulatorError('bad_input', 'The recording has no account')
  const world = new RecordedWorldBuilder(options.builtAt ?? recordedInstant(recording), options.keepApiKeys === true)
  recording.accounts.forEach((account, a) => world.addAccount(account, a))
  return world.build(recording)
}
