import type { AccountSettings } from '../../handlers/index.js'
import type { FaultRule } from './fault-rules.js'

/** What `emulator.state()` and `GET /__emulator/state` answer. */
export type EmulatorState = {
  scenario: string
  seed: number
  builtAt: string
  clock: { now: string; frozen: boolean }
  accounts: AccountSettings[]
  counts: { activations: number; entries: number; participants: number }
  faults: FaultRule[]
}
