import { ADMIN_PREFIX } from '../../handlers/admin/context.js'
import { endpointHandler, type EndpointHandler } from '../../handlers/endpoint-handler.js'
import { apiError, errorResponse } from '../../handlers/errors.js'
import { splitUnderBase, urlOf } from '../../handlers/path.js'
import type { AccountKeys } from './account-keys.js'
import type { Clock } from '../time/clock.js'
import { parseInstant } from '../time/clock.js'
import { parseWorldDumpInTurns } from '../world/dump.js'
import { inTurns } from '../time/turns.js'
import type { Scenario } from '../world/scenario.js'
import { LayerStore } from '../store/layer-store.js'
import { WorldStore } from '../store/world-store.js'
import { EmulatorError } from '../contract/emulator-error.js'
import type { FaultRuleInput } from './fault-rules.js'
import { checkSandboxOptions, type SandboxOptions } from './sandbox-options.js'
import { randomToken, type HeldSandbox, type SandboxRegistry } from './sandboxes.js'
import type { Store, WritableStore } from '../store/store.js'
import type { Emulator, Sandbox } from './emulator-type.js'
import type { Assembled, Parts } from './emulator-parts.js'

/** What opening a sandbox needs of the emulator it is opened on, besides the parts that emulator was made of. */
export type SandboxHost = {
  parts: Parts
  /** The host's sandboxes; undefined in a sandbox, which holds none. */
  registry: SandboxRegistry | undefined
  defaultTtlMs: number
  clock: Clock
  accounts: AccountKeys
  /** What makes an emulator of its parts (`assemble`), for the sandbox. */
  assemble<S extends WritableStore>(parts: Parts<S>): Assembled<S>
}

/**
 * Opens a sandbox over this emulator's world (see `Emulator.sandbox`). Its `data`'s records become
 * the sandbox's store's (which marks them): a copy of the caller's, or, when `dataOwned` (a body the
 * admin API parsed for this request alone, which nothing else holds), those records themselves (a
 * copy of `busy`'s would be 205,000 entries more for the collector to allocate and mark).
 */
export async function openSandbox(host: SandboxHost, input: SandboxOptions = {}, dataOwned = false): Promise<Sandbox> {
  const { parts, registry, defaultTtlMs, clock, accounts, assemble } = host
  const { options, scenario, builtAt, store, baseUrl } = parts
  if (!registry)
    throw new EmulatorError('bad_option', 'A sandbox holds no sandboxes: open them on the emulator it was opened on')
  const { ttlMs = defaultTtlMs } = checkSandboxOptions(input)
  registry.checkRoom()
  // A dump is a world of its own; otherwise the sandbox's store is a layer over this one's world.
  // Checked and copied in turns: a dump of hundreds of megabytes must not stall the host's other requests.
  const data = input.data === undefined ? undefined : await parseWorldDumpInTurns(input.data, 'data')
  const base = data ? data.scenario : scenario
  let id = randomToken(12)
  while (registry.has(id)) id = randomToken(12)
  for (const name of Object.keys(input.accounts ?? {})) {
    if (!base.accounts.some((a) => a.name === name)) {
      // A 400, not a 404: the body is wrong, not the path.
      throw new EmulatorError(
        'bad_option',
        `Unknown account ${JSON.stringify(name)} in accounts: the accounts are ${base.accounts.map((a) => a.name).join(', ')}`,
      )
    }
  }
  const apiKeys: Record<string, string[]> = {}
  const sandboxScenario: Scenario = {
    ...base,
    accounts: base.accounts.map((account) => {
      const keys = account.apiKeys.map(() => `sk_${randomToken(24)}`)
      apiKeys[account.name] = keys
      const settings = input.accounts?.[account.name]
      return {
        ...account,
        apiKeys: keys,
        premium: settings?.premium ?? account.premium,
        rateLimit: settings?.rateLimit === undefined ? account.rateLimit : settings.rateLimit,
      }
    }),
  }
  const sandboxStore = data
    ? await WorldStore.load(
        dataOwned
          ? { activations: data.activations, entries: data.entries, participants: data.participants }
          : {
              activations: await copiedInTurns(data.activations),
              entries: await copiedInTurns(data.entries),
              participants: await copiedInTurns(data.participants),
            },
        inTurns,
      )
    : new LayerStore(store.loaded)
  const sandboxBuiltAt = data ? Date.parse(data.builtAt) : builtAt
  const startsAt = input.now !== undefined ? parseInstant(input.now, 'now') : data ? sandboxBuiltAt : clock.now()
  const frozen = input.freeze ?? (data ? true : clock.frozen)
  const sandboxBaseUrl = `${baseUrl}/sandboxes/${id}`
  const assembled = assemble<WritableStore>({
    options,
    scenario: sandboxScenario,
    builtAt: sandboxBuiltAt,
    startAt: startsAt,
    running: !frozen,
    store: sandboxStore,
    plannedCounts: data ? undefined : parts.plannedCounts,
    baseUrl: sandboxBaseUrl,
    keyedBaseUrl: baseUrl,
    startFaults: (input.faults ?? []) as FaultRuleInput[],
    sandboxOf: { id, registry, hostAccountOfKey: (key) => accounts.accountOfKey(key)?.name },
    bodies: parts.bodies,
    dumps: parts.dumps,
  })
  const sandbox = assembled.emulator as Emulator<Store> as Sandbox
  const origin = new URL(baseUrl).origin
  const createdAt = registry.now()
  const held: HeldSandbox = {
    id,
    keys: Object.values(apiKeys).flat(),
    ttlMs,
    createdAt,
    lastUsed: createdAt,
    sandbox,
    keyed: assembled.keyed,
    prefixed: sandbox.handlers as EndpointHandler[],
    touch() {
      held.lastUsed = registry.now()
    },
    info: () => {
      const expires = registry.expiresAt(held)
      return {
        id,
        label: input.label ?? null,
        apiKeys: structuredClone(apiKeys),
        baseUrl: sandboxBaseUrl,
        adminUrl: `${origin}${ADMIN_PREFIX}/sandboxes/${id}`,
        createdAt: new Date(createdAt).toISOString(),
        lastUsedAt: new Date(held.lastUsed).toISOString(),
        expiresAt: expires === null ? null : new Date(expires).toISOString(),
        requests: sandbox.journal.lastSeq,
        changes: sandboxStore.changes.size,
      }
    },
    close() {
      sandboxStore.changes.revert()
      sandbox.journal.end()
    },
  }
  Object.assign(sandbox, {
    // Its own handlers, used without the host's router (in-process), answer its 404 once it has ended.
    handlers: [endedGate(sandboxBaseUrl, held), ...held.prefixed],
    id,
    label: input.label ?? null,
    apiKeys,
    adminUrl: `${origin}${ADMIN_PREFIX}/sandboxes/${id}`,
    expiresAt: () => {
      const at = registry.expiresAt(held)
      return at === null ? null : new Date(at).toISOString()
    },
  })
  registry.add(held)
  return sandbox
}

/** A handler that answers every request under a sandbox's base URL with its 404 once it has ended, and matches none before. */
function endedGate(baseUrl: string, held: HeldSandbox): EndpointHandler {
  const placeOf = splitUnderBase(baseUrl)
  return endpointHandler<{ ended: string }>(
    (request) => (held.ended !== undefined && placeOf(urlOf(request)).under ? { ended: held.ended } : null),
    (_, { ended }) => errorResponse(apiError(404, ended)),
  )
}

/** A deep copy of records (structuredClone), a slice at a time, giving the event loop its turns between slices. */
function copiedInTurns<T>(records: readonly T[]): Promise<T[]> {
  return inTurns(
    (function* () {
      const copy: T[] = []
      for (let i = 0; i < records.length; i += 500) {
        for (const record of structuredClone(records.slice(i, i + 500))) copy.push(record)
        yield
      }
      return copy
    })(),
  )
}
