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
import { connect, createEmulator, useEmulator, useSandbox, useServer } from '../../src/index.js'
import { openApiDocument, type OpenApiDocument } from '../../src/contract.js'
import type { ClockReading, JournalFilter } from '../../src/emulator/handle.js'
import type { InProcessHandle } from '../../src/node/use-emulator.js'
import type { SandboxHandle } from '../../src/node/use-sandbox.js'
import type { ServerHandle } from '../../src/node/use-server.js'
import type { RequestRecord } from '../../handlers/context.js'

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
    expectTypeOf(useEmulator).returns.toEqualTypeOf<InProcessHandle>()
    expectTypeOf<EmulatorHandle['apiKey']>().toEqualTypeOf<string>()
    expectTypeOf(openApiDocument).returns.toEqualTypeOf<OpenApiDocument>()
    expectTypeOf<Emulator['state']>().returns.toEqualTypeOf<EmulatorState>()
  })

  it('one handle shape in every mode: every handle is an EmulatorHandle, async, with the same answers', () => {
    expectTypeOf<InProcessHandle>().toExtend<EmulatorHandle>()
    expectTypeOf<SandboxHandle>().toExtend<EmulatorHandle>()
    expectTypeOf<ServerHandle>().toExtend<EmulatorHandle>()
    expectTypeOf(useServer).returns.toEqualTypeOf<ServerHandle>()
    expectTypeOf(useSandbox).returns.toEqualTypeOf<SandboxHandle>()
    expectTypeOf(connect).returns.resolves.toEqualTypeOf<ServerHandle>()
    expectTypeOf<Emulator['handle']>().toEqualTypeOf<EmulatorHandle>()
    expectTypeOf<EmulatorHandle['clock']['advance']>().returns.toEqualTypeOf<Promise<ClockReading>>()
    expectTypeOf<EmulatorHandle['faults']['add']>().returns.toEqualTypeOf<Promise<FaultRule>>()
    expectTypeOf<EmulatorHandle['requests']>().parameters.toEqualTypeOf<[JournalFilter?]>()
    expectTypeOf<EmulatorHandle['requests']>().returns.toEqualTypeOf<Promise<JournalEntry[]>>()
    expectTypeOf<EmulatorHandle['state']>().returns.toEqualTypeOf<Promise<EmulatorState>>()
    // "No fault" is null, in the library as over HTTP.
    expectTypeOf<JournalEntry['fault']>().toEqualTypeOf<string | null>()
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
