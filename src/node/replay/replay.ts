import { answerFrom } from '../../../handlers/msw-adapter.js'
import { createEmulator } from '../../emulator/emulator.js'
import type { Emulator } from '../../emulator/emulator-type.js'
import type { Bundle } from '../../emulator/bundle.js'
import { requestsOf, type BundledRequest } from '../../emulator/bundle-journal.js'
import type { LoggedChange } from '../../emulator/control-log.js'
import type { FaultRuleInput } from '../../emulator/fault-rules.js'
import type { NewActivation } from '../../world/add-data.js'
import { answerDifference, type Difference } from './differences.js'

/** What a replay found: how many requests it sent, and the first whose answer differs (none: all match). */
type Replayed = {
  emulator: Emulator
  sent: number
  /** Requests whose answer could not be compared (their path or query was cut in the journal). */
  skipped: number[]
  first: { request: BundledRequest; difference: Difference } | undefined
}

/** The request's URL under the base URL. */
const urlOf = (baseUrl: string, request: BundledRequest): string =>
  `${baseUrl}${request.path}${request.search ? `?${request.search}` : ''}`

type Accounts = { accounts?: Array<{ name?: unknown; apiKeys?: unknown }> }

/**
 * A dump's records with its accounts' API keys as the bundle names them (the journal's requests carry
 * those names, and the bundle's scenario has them in place of the keys).
 */
function withNamedKeys(data: unknown, named: unknown): unknown {
  const dump = data as { scenario?: Accounts }
  const names = new Map((named as Accounts).accounts?.map((a) => [a.name, a.apiKeys]) ?? [])
  if (typeof dump !== 'object' || dump === null || !Array.isArray(dump.scenario?.accounts)) return data
  return {
    ...dump,
    scenario: {
      ...dump.scenario,
      accounts: dump.scenario.accounts.map((a) => ({ ...a, apiKeys: names.get(a.name) ?? a.apiKeys })),
    },
  }
}

/** Applies one change of the bundle, at its instant. */
async function apply(emulator: Emulator, change: LoggedChange): Promise<void> {
  emulator.set({ now: change.at })
  switch (change.change) {
    case 'set':
      emulator.set(change.settings as Parameters<Emulator['set']>[0])
      return
    case 'clock':
      return
    case 'addEntries':
      await emulator.addEntries(change.activationId, change.count)
      return
    case 'addActivation':
      await emulator.addActivation(change.activation as NewActivation)
      return
    case 'faultAdded':
      emulator.faults.add(change.rule as FaultRuleInput)
      return
    case 'faultRemoved':
      emulator.faults.remove(change.id)
      return
    case 'faultsCleared':
      emulator.faults.clear()
  }
}

/**
 * Stands the bundle's emulator up at its first instant and sends the journal's requests in order:
 * the clock set to each request's instant (frozen), each change applied where it happened, the rate
 * limit's real time that of each request; each answer compared with the one recorded (status, error,
 * items, and the body by its hash). Stops at the first that
 * differs, unless `all` (then every request is sent, and every change applied, and `first` is still
 * the first that differed). `data`: the records of a world the bundle served from a dump.
 * @example const { first } = await replayBundle(bundle)
 */
export async function replayBundle(bundle: Bundle, options: { data?: unknown; all?: boolean } = {}): Promise<Replayed> {
  const requests = requestsOf(bundle.journal)
  const bodies = bundle.journal.bodies
  let realNow = 0
  const emulator = await createEmulator({
    ...(bundle.options as Record<string, never>),
    ...(options.data === undefined
      ? { scenario: bundle.world.scenario as never, now: bundle.world.builtAt }
      : { data: withNamedKeys(options.data, bundle.world.scenario), now: bundle.world.builtAt }),
    clock: 'frozen',
    realTime: () => realNow,
  })
  const changes = [...bundle.changes.list]
  const skipped: number[] = []
  let sent = 0
  let first: Replayed['first']
  for (const request of requests) {
    while (changes.length && changes[0]!.afterSeq < request.seq) await apply(emulator, changes.shift()!)
    emulator.set({ now: request.at })
    realNow = request.realMs
    const headers: Record<string, string> = request.key === null ? {} : { authorization: `Api-Key ${request.key}` }
    const asked = new Request(urlOf(emulator.baseUrl, request), { method: request.method, headers })
    const before = emulator.journal.lastSeq
    const response = await answerFrom(emulator.handlers, asked)
    const bytes = response ? new Uint8Array(await response.arrayBuffer()) : new Uint8Array()
    sent++
    if (request.cut?.some((field) => field === 'path' || field === 'query')) {
      skipped.push(request.seq)
      continue
    }
    // The journal's entry of this request: none when the API did not journal it (not one of its paths).
    const replayed = emulator.journal.lastSeq > before ? emulator.journal.get(emulator.journal.lastSeq) : undefined
    const difference = first ? undefined : answerDifference(request, bodies[request.seq], replayed, bytes)
    if (difference) {
      first = { request, difference }
      if (!options.all) return { emulator, sent, skipped, first }
    }
  }
  for (const change of changes) await apply(emulator, change)
  return { emulator, sent, skipped, first }
}
