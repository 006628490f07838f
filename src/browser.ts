// activation-emulator's public API for any JavaScript runtime, a browser included (the package's
// `browser` export condition): the emulator and its options, scenarios, the journal's checks, and the
// types of what they take and return, with no Node built-in and no Buffer. The Node-only pieces (the
// server, scenario files, useEmulator over msw/node) are in index.ts; the contract's schemas and the
// OpenAPI document are in contract.ts (`activation-emulator/contract`). Everything else is internal.

export {
  createEmulator,
  type Emulator,
  type EmulatorFaults,
  type EmulatorState,
  type Sandbox,
  type SandboxInfo,
  type SandboxOptions,
} from './emulator/emulator.js'
export type { EmulatorOptions, EmulatorSettings } from './emulator/emulator-options.js'
export type { FaultRule, FaultRuleInput } from './emulator/fault-rules.js'
export type { EmulatorHandle } from './emulator/handle.js'
export type { Added, NewActivation } from './world/add-data.js'
export { EmulatorError, type EmulatorErrorCode } from './contract/emulator-error.js'
export type { AccountSettings, EndpointName, EndpointOptions, UnsupportedFilter } from '../handlers/index.js'
export type { Clock } from './time/clock.js'
export type { Store } from './store/store.js'
export type { Journal, JournalEntry } from './emulator/journal.js'
export {
  expectEveryPageOnce,
  expectKeyOnEveryRequest,
  expectReportPassed,
  expectRespectedRateLimit,
  type WalkSelector,
} from './emulator/journal-checks.js'
export type { ReportCard } from './emulator/report-card.js'
export {
  defineScenario,
  type Account,
  type Scenario,
  type ScenarioExtension,
  type ScenarioInput,
} from './world/scenario.js'
export { scenarios } from '../scenarios/index.js'
export type { WorldDump } from './world/dump.js'
// The types of the API's bodies, and the guard that narrows an entry by its activation's type (the
// schemas are in activation-emulator/contract).
export type { Activation } from './contract/activation.js'
export type { DateObject } from './contract/date-object.js'
export type { ActivationType, State } from './contract/enums.js'
export { isEntryOf, type Entry, type EntryOf } from './contract/entry.js'
export type { Participant } from './contract/participant.js'
export type { ActivationList, ActivationWithEntries, ErrorBody, ParticipantList } from './contract/responses.js'
export type { RateLimit } from './contract/rate-limit.js'
