// activation-emulator's public API for any JavaScript runtime, a browser included (the package's
// `browser` export condition): the emulator, its handlers, world and contract, with no Node built-in
// and no Buffer. The Node-only pieces (the server, file loading, useEmulator over msw/node, the
// command line) are in index.ts.

export { createEmulator, type Emulator, type EmulatorFaults, type EmulatorState } from './emulator/emulator.js'
export type { FaultRule, FaultRuleInput } from './emulator/fault-rules.js'
export type { Added, NewActivation } from './world/add-data.js'
export { EmulatorError, type EmulatorErrorCode } from './contract/emulator-error.js'
export {
  DEFAULT_BASE_URL,
  DEFAULT_ENDPOINT_OPTIONS,
  type EmulatorOptions,
  type EmulatorSettings,
} from './emulator/emulator-options.js'
export { DUMP_FORMAT, parseWorldDump, worldDumpChunks, type WorldDump } from './world/dump.js'
export type { AccountSettings, EndpointOptions, UnsupportedFilter } from '../handlers/index.js'

export * from './contract/enums.js'
export {
  filterApplies,
  TYPE_RULES,
  TYPED_ENTRY_FILTERS,
  typesOfFilter,
  type DefaultCount,
  type TypedEntryFilter,
  type TypeRules,
} from './contract/type-rules.js'
export { dateObjectSchema, toDateObject, type DateObject } from './contract/date-object.js'
export { activationSchema, type Activation } from './contract/activation.js'
export { entrySchemas, type Entry, type EntryOf } from './contract/entry.js'
export { participantSchema, type Participant } from './contract/participant.js'
export * from './contract/nested.js'
export { createClock, parseDuration, type Clock } from './time/clock.js'
export { Journal, type JournalEndpoint, type JournalEntry } from './emulator/journal.js'
export {
  expectEveryPageOnce,
  expectKeyOnEveryRequest,
  expectRespectedRateLimit,
  type JournalSource,
  type WalkSelector,
} from './emulator/journal-checks.js'
export {
  defineScenario,
  parseScenario,
  type EndpointDefaults,
  type Faults,
  type Scenario,
  type ScenarioExtension,
  type ScenarioInput,
} from './world/scenario.js'
export { resolveScenario, SCENARIO_NAMES } from './world/resolve-scenario.js'
export { buildWorld, type World } from './world/world.js'
export { createDatabase, type Database, type DeferredWorld } from './store/database.js'
export type { StoredActivation, StoredEntry, StoredParticipant } from './contract/stored-records.js'
export { stateOf } from './contract/state.js'
export { toActivation, toEntry, toParticipant } from '../handlers/serialize.js'
export { scenarios } from '../scenarios/index.js'
export { openApiDocument, type OpenApiDocument, type OpenApiOptions } from './emulator/openapi.js'
export {
  activationListSchema,
  activationWithEntriesSchema,
  errorBodySchema,
  LIMIT_MAX,
  participantListSchema,
  type ActivationList,
  type ActivationWithEntries,
  type ErrorBody,
  type ParticipantList,
} from './contract/responses.js'
export { rateLimitSchema, type RateLimit } from './contract/rate-limit.js'
export type { Account } from './world/scenario.js'
export type { EndpointName, RequestRecord } from '../handlers/index.js'
export type { ActivationConfig, Bracket, EntryInternals, ExtraQuestion } from './contract/stored-records.js'
