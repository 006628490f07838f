import { expectTypeOf, describe, it } from 'vitest'
import type {
  Account,
  Activation,
  ActivationList,
  ActivationType,
  ActivationWithEntries,
  AccountSettings,
  Clock,
  DateObject,
  Emulator,
  EmulatorHandle,
  EmulatorOptions,
  EmulatorSettings,
  EmulatorState,
  EndpointName,
  EndpointOptions,
  Entry,
  EntryOf,
  ErrorBody,
  FaultRule,
  FaultRuleInput,
  JournalEntry,
  LifecycleHooks,
  NewActivation,
  Participant,
  ParticipantList,
  RateLimit,
  RunningServer,
  Scenario,
  ScenarioInput,
  ServeOptions,
  State,
  UseEmulatorOptions,
  WorldDump,
} from '../../src/index.js'
import { createEmulator, useEmulator } from '../../src/index.js'
import { openApiDocument, type OpenApiDocument } from '../../src/contract.js'
import type { RequestRecord } from '../../handlers/index.js'

// Types a consumer writes, each reachable from the package's one entry. `npm test` type-checks this
// file (tsc over test/), so a type that stops being exported, or changes shape, fails there.
describe('the exported types', () => {
  it('RateLimit is what rateLimit options take', () => {
    expectTypeOf<RateLimit>().toEqualTypeOf<{ limit: number; windowSeconds: number }>()
    expectTypeOf<EmulatorOptions['rateLimit']>().toEqualTypeOf<RateLimit | null | undefined>()
    expectTypeOf<EmulatorSettings>().toBeObject()
  })

  it('the response bodies a client parses', () => {
    expectTypeOf<ActivationList>().toEqualTypeOf<{ activations: Activation[]; next: string | null }>()
    expectTypeOf<ActivationWithEntries['entries']>().toEqualTypeOf<Entry[]>()
    expectTypeOf<ActivationWithEntries['activation']>().toEqualTypeOf<Activation>()
    expectTypeOf<ParticipantList['participants']>().toEqualTypeOf<Participant[]>()
    expectTypeOf<ErrorBody>().toEqualTypeOf<{ error: string }>()
    expectTypeOf<Activation['startTime']>().toEqualTypeOf<DateObject>()
    expectTypeOf<EntryOf<'giveaway'>['isWinner']>().toEqualTypeOf<boolean>()
    expectTypeOf<ActivationType>().toExtend<string>()
    expectTypeOf<State>().toEqualTypeOf<'not_started' | 'running' | 'ended'>()
  })

  it('the library and the lifecycle helper', () => {
    expectTypeOf(createEmulator).returns.resolves.toEqualTypeOf<Emulator>()
    expectTypeOf(useEmulator).parameters.toEqualTypeOf<[UseEmulatorOptions, LifecycleHooks]>()
    expectTypeOf(useEmulator).returns.toEqualTypeOf<EmulatorHandle>()
    expectTypeOf<EmulatorHandle['apiKey']>().toEqualTypeOf<string>()
    expectTypeOf(openApiDocument).returns.toEqualTypeOf<OpenApiDocument>()
    expectTypeOf<Emulator['state']>().returns.toEqualTypeOf<EmulatorState>()
  })

  it('scenarios, control and the server', () => {
    expectTypeOf<Scenario['accounts'][number]>().toEqualTypeOf<Account>()
    expectTypeOf<ScenarioInput>().toBeObject()
    expectTypeOf<Emulator['faults']['add']>().parameters.toEqualTypeOf<[FaultRuleInput]>()
    expectTypeOf<Emulator['faults']['add']>().returns.toEqualTypeOf<FaultRule>()
    expectTypeOf<Emulator['addActivation']>().parameters.toEqualTypeOf<[NewActivation]>()
    expectTypeOf<Emulator['accounts'][number]>().toEqualTypeOf<AccountSettings>()
    expectTypeOf<Emulator['options']>().toEqualTypeOf<EndpointOptions>()
    expectTypeOf<Emulator['clock']>().toEqualTypeOf<Clock>()
    expectTypeOf<JournalEntry>().toExtend<RequestRecord>()
    expectTypeOf<RequestRecord['endpoint']>().toEqualTypeOf<EndpointName | null>()
    expectTypeOf<RunningServer>().toBeObject()
    expectTypeOf<ServeOptions>().toBeObject()
    expectTypeOf<WorldDump>().toBeObject()
  })
})
