import { rmSync } from 'node:fs'
import {
  idMap,
  RECORDING_FORMAT,
  type RecordedAccount,
  type RecordedPage,
  type Recording,
} from '../../world/recording.js'
import type { RemoteClient } from '../remote/client.js'
import { redactKeys } from '../remote/redact.js'
import {
  CHECKPOINT_FORMAT,
  hashKeys,
  openCheckpoint,
  readCheckpoint,
  type ChainKind,
  type CheckpointPage,
  type CheckpointWriter,
} from './checkpoint.js'

// The walker of `record`: every page of every list of each account, through the polite client, each
// page written to the checkpoint before it counts as done. The lists of different activations are
// independent chains and run side by side (the client bounds how many requests are in flight); the
// pages of one chain are asked one after the other, each from the `next` of the one before.
//
// A page's path is relative to the base URL: the list's path, then `?`, the filter (`is_completed=1&`
// or `is_winner=1&`), `limit=<n>`, and `&next=<next>` on every page but the first; ids and `next`
// are percent-encoded.

/** The `limit` each list is read with. */
export type RecordLimits = { activations: number; entries: number; participants: number }

/** The limits a recording uses by default: the maxima the spec allows. */
export const DEFAULT_RECORD_LIMITS: RecordLimits = { activations: 100, entries: 1000, participants: 100 }

/** Where a recording is, told after every page. */
export type RecordProgress = {
  /** Pages recorded, those of a resumed checkpoint included. */
  pages: number
  /** Activations, entries and participants recorded (the filters' pages not counted). */
  records: number
  /** Records per second in this run. */
  rate: number
  /** Activations listed so far, and those whose every list is recorded, over all accounts. */
  activations: { listed: number; done: number }
  /** The account being recorded (from 1) and how many there are. */
  account: number
  accounts: number
}

/** What recordAccounts needs. */
export type RecordOptions = {
  client: RemoteClient
  /** One account per key, recorded in this order. */
  apiKeys: string[]
  limits?: RecordLimits
  /** The checkpoint file's path. */
  checkpoint: string
  /** Go on with the checkpoint if it exists (it must have been made for the same URL, keys and limits). */
  resume?: boolean
  /** Delete the checkpoint if it exists, and record afresh (not with `resume`). */
  restart?: boolean
  /** Stops the recording (Ctrl-C), its requests in flight and its waits: recordAccounts then rejects with a RecordInterruptedError. */
  signal?: AbortSignal
  onProgress?: (progress: RecordProgress) => void
}

/**
 * The recording stopped on its signal; its checkpoint holds every page recorded and can be resumed (or,
 * when no page was recorded, it is gone).
 */
export class RecordInterruptedError extends Error {
  constructor(
    readonly checkpoint: string,
    readonly pages: number,
  ) {
    super(
      pages === 0
        ? `The recording stopped before its first page; no checkpoint is kept`
        : `The recording stopped; its checkpoint ${checkpoint} holds ${pages} pages`,
    )
    this.name = 'RecordInterruptedError'
  }
}

const COMPLETED_TYPES = new Set(['trivia', 'pickem', 'scavenger'])
const WINNER_TYPES = new Set(['trivia', 'pickem'])
const STATES = ['not_started', 'running', 'ended'] as const
const ITEMS: Record<ChainKind, string> = {
  activations: 'activations',
  states: 'activations',
  entries: 'entries',
  completed: 'entries',
  winners: 'entries',
  participants: 'participants',
}

/** One list being walked: its pages so far, and whether its last page had `next` null. */
type Chain = { pages: RecordedPage[]; done: boolean; forbidden: boolean }

/** An account's chains. */
type AccountState = {
  activations: Chain
  /** The activations listed so far, in order, with their type. */
  listed: Map<string, string>
  entries: Map<string, Chain>
  completed: Map<string, Chain>
  winners: Map<string, Chain>
  /** The activations list of each state (`id` names the state), which tells the instant the upstream stands at. */
  states: Map<string, Chain>
  participants: Chain
}

const newChain = (): Chain => ({ pages: [], done: false, forbidden: false })

function chainOf(state: AccountState, kind: ChainKind, id: string | undefined): Chain {
  if (kind === 'activations') return state.activations
  if (kind === 'participants') return state.participants
  const map = state[kind]
  let chain = map.get(id as string)
  if (!chain) map.set(id as string, (chain = newChain()))
  return chain
}

/** The path of a chain's first page (`id` is the state or the activation of the chains that have one). */
function firstPath(kind: ChainKind, id: string | undefined, limits: RecordLimits): string {
  const activation = () => `/activations/${encodeURIComponent(id as string)}`
  switch (kind) {
    case 'activations':
      return `/activations/list?limit=${limits.activations}`
    case 'states':
      return `/activations/list?state=${id as string}&limit=${limits.activations}`
    case 'entries':
      return `${activation()}?limit=${limits.entries}`
    case 'completed':
      return `${activation()}?is_completed=1&limit=${limits.entries}`
    case 'winners':
      return `${activation()}?is_winner=1&limit=${limits.entries}`
    case 'participants':
      return `/experience/participants?limit=${limits.participants}`
  }
}

/** The path of a chain's next page; null when it is done. */
function nextPath(chain: Chain, kind: ChainKind, id: string | undefined, limits: RecordLimits): string | null {
  if (chain.done) return null
  const last = chain.pages.at(-1)
  if (!last) return firstPath(kind, id, limits)
  const next = (last.body as { next: string }).next
  return `${firstPath(kind, id, limits)}&next=${encodeURIComponent(next)}`
}

function checkLimits(limits: RecordLimits): void {
  const bounds: Array<[keyof RecordLimits, number]> = [
    ['activations', 100],
    ['entries', 1000],
    ['participants', 100],
  ]
  for (const [name, max] of bounds) {
    const value = limits[name]
    if (!Number.isInteger(value) || value < 1 || value > max) {
      throw new Error(`The ${name} limit must be a whole number from 1 to ${max}, got ${value}`)
    }
  }
}

/**
 * Records each account of `apiKeys` through `client`: every activation, each one's entries (and its
 * completed and winning entries where the type has them), and the participants (none when the account
 * answers 403). Resumes from `checkpoint` when `resume` is set, without asking any recorded page again.
 * @example
 * const client = createRemoteClient({ baseUrl: 'https://api.example.com' })
 * const recording = await recordAccounts({ client, apiKeys: ['KEY'], checkpoint: 'record.ckpt', resume: true })
 */
export async function recordAccounts(options: RecordOptions): Promise<Recording> {
  const { client, apiKeys, checkpoint, signal } = options
  const limits = options.limits ?? DEFAULT_RECORD_LIMITS
  checkLimits(limits)
  if (apiKeys.length === 0) throw new Error('At least one API key is needed to record')
  if (options.resume && options.restart) throw new Error('Resume or restart a recording, not both')
  if (options.restart) rmSync(checkpoint, { force: true })
  const from = client.baseUrl
  const keys = hashKeys(apiKeys)
  const states: AccountState[] = apiKeys.map(() => ({
    activations: newChain(),
    listed: new Map(),
    entries: new Map(),
    completed: new Map(),
    winners: new Map(),
    states: new Map(),
    participants: newChain(),
  }))

  let pages = 0
  let records = 0
  let recordsBefore = 0
  let serverDate: string | null = null
  let startedAt = new Date().toISOString()
  const activationsDone = new Set<string>()
  let listedCount = 0
  let current = 0

  /** Takes a page into its chain (from the upstream or the checkpoint); returns the activations it lists first. */
  function take(page: CheckpointPage): Array<[string, string]> {
    const state = states[page.account]
    if (!state) throw new Error(`Failed to read the checkpoint ${checkpoint}: a page of account ${page.account}`)
    const chain = chainOf(state, page.chain, page.id)
    const expected = nextPath(chain, page.chain, page.id, limits)
    if (expected !== page.path) {
      throw new Error(
        `Failed to read the checkpoint ${checkpoint}: it holds ${page.path} where ${expected ?? 'no more page'} was due`,
      )
    }
    pages++
    // (Only the first page of a recording has a date.)
    if (page.date) serverDate = page.date
    const added: Array<[string, string]> = []
    // The only page kept that is not a 200: the participants' 403 (walkChain fails on any other).
    if (page.status === 403) {
      chain.forbidden = true
      chain.done = true
      return added
    }
    const body = page.body as Record<string, unknown>
    chain.pages.push({ path: page.path, status: page.status, body })
    chain.done = body['next'] === null
    const items = body[ITEMS[page.chain]] as unknown[]
    if (page.chain === 'activations' || page.chain === 'entries' || page.chain === 'participants') {
      records += items.length
    }
    if (page.chain === 'activations') {
      for (const item of items as Array<Record<string, unknown>>) {
        const [id, type] = [item['id'] as string, item['type'] as string]
        if (!state.listed.has(id)) added.push([id, type])
        state.listed.set(id, type)
      }
    }
    listedCount += added.length
    return added
  }

  let writer: CheckpointWriter
  const loaded = options.resume ? readCheckpoint(checkpoint, { from, keys, limits }) : null
  if (loaded) {
    startedAt = loaded.startedAt
    for (const page of loaded.pages) take(page)
    recordsBefore = records
    // What the progress counts as done: the activations whose every list the checkpoint holds whole.
    states.forEach((state, account) => {
      for (const [id, type] of state.listed) {
        const lists = [state.entries.get(id)]
        if (COMPLETED_TYPES.has(type)) lists.push(state.completed.get(id))
        if (WINNER_TYPES.has(type)) lists.push(state.winners.get(id))
        if (lists.every((chain) => chain?.done)) activationsDone.add(`${account} ${id}`)
      }
    })
    writer = openCheckpoint(checkpoint, null)
  } else {
    writer = openCheckpoint(
      checkpoint,
      { format: CHECKPOINT_FORMAT, from, keys, limits, startedAt },
      options.resume === true,
    )
  }
  const runStart = Date.now()

  function report(): void {
    if (!options.onProgress) return
    const seconds = (Date.now() - runStart) / 1000
    options.onProgress({
      pages,
      records,
      rate: seconds > 0 ? (records - recordsBefore) / seconds : 0,
      activations: { listed: listedCount, done: activationsDone.size },
      account: current + 1,
      accounts: apiKeys.length,
    })
  }

  let stopped = false
  let failure: unknown = null
  // Aborted on the caller's signal or on the first failure: every request in flight or waiting (a 429's minute) stops.
  const stop = new AbortController()

  /** Walks one chain to its end from where it stands. */
  async function walkChain(account: number, kind: ChainKind, id?: string): Promise<void> {
    const state = states[account]!
    const apiKey = apiKeys[account]!
    const chain = chainOf(state, kind, id)
    const seen = new Set(chain.pages.map((page) => (page.body as { next: unknown }).next))
    for (let path = nextPath(chain, kind, id, limits); path !== null; path = nextPath(chain, kind, id, limits)) {
      if (stopped) return
      const answer = await client.request(path, { apiKey, signal: stop.signal })
      const what = `Failed to record ${path} of account ${account + 1}`
      const page: CheckpointPage = {
        account,
        chain: kind,
        id,
        path,
        status: answer.status,
        body: answer.body,
      }
      if (pages === 0) {
        const date = answer.headers.get('date')
        if (date && !Number.isNaN(Date.parse(date))) page.date = new Date(date).toISOString()
      }
      if (kind === 'participants' && answer.status === 403 && chain.pages.length === 0) {
        writer.append(page)
        take(page)
        report()
        return
      }
      if (answer.status !== 200) {
        throw new Error(
          `${what}: the upstream answered ${answer.status} ${redactKeys(answer.text, apiKeys).slice(0, 200)}`,
        )
      }
      const body = answer.body as Record<string, unknown> | null
      const next = body?.['next']
      if (!Array.isArray(body?.[ITEMS[kind]])) throw new Error(`${what}: the answer has no ${ITEMS[kind]} array`)
      if (next !== null && typeof next !== 'string') throw new Error(`${what}: its next is neither a string nor null`)
      // (A next null ends the chain, so it is never among those seen.)
      if (seen.has(next)) throw new Error(`${what}: its next ${next} was given before`)
      seen.add(next)
      if (kind === 'activations') {
        for (const item of body['activations'] as unknown[]) {
          const itemId = (item as { id?: unknown } | null)?.id
          if (typeof itemId !== 'string' || itemId === '') throw new Error(`${what}: an activation has no id`)
        }
      }
      writer.append(page, answer.text)
      for (const [itemId, type] of take(page)) start(walkActivation(account, itemId, type))
      report()
    }
  }

  /** Walks an activation's lists: its entries, and its completed and winning entries where its type has them. */
  async function walkActivation(account: number, id: string, type: string): Promise<void> {
    const walks = [walkChain(account, 'entries', id)]
    if (COMPLETED_TYPES.has(type)) walks.push(walkChain(account, 'completed', id))
    if (WINNER_TYPES.has(type)) walks.push(walkChain(account, 'winners', id))
    await Promise.all(walks)
    if (!stopped) {
      activationsDone.add(`${account} ${id}`)
      report()
    }
  }

  const running = new Set<Promise<void>>()
  function start(task: Promise<void>): void {
    const tracked = task.catch((error: unknown) => {
      if (!stopped) failure = error
      stopped = true
      stop.abort(error)
    })
    running.add(tracked)
    void tracked.finally(() => running.delete(tracked))
  }
  const onAbort = () => {
    stopped = true
    stop.abort(signal?.reason)
  }
  if (signal?.aborted) onAbort()
  signal?.addEventListener('abort', onAbort)

  try {
    for (current = 0; current < apiKeys.length && !stopped; current++) {
      start(walkChain(current, 'activations'))
      for (const state of STATES) start(walkChain(current, 'states', state))
      for (const [id, type] of states[current]!.listed) start(walkActivation(current, id, type))
      start(walkChain(current, 'participants'))
      while (running.size > 0) await Promise.all([...running])
    }
  } finally {
    signal?.removeEventListener('abort', onAbort)
    writer.close()
    // A checkpoint that holds no page is of no use, and would only stand in the way of the next run.
    // (A failure stops the recording too.)
    if (stopped && pages === 0) rmSync(checkpoint, { force: true })
  }
  if (signal?.aborted) throw new RecordInterruptedError(checkpoint, pages)
  if (failure) throw failure
  current = apiKeys.length - 1
  report()

  const accounts: RecordedAccount[] = states.map((state, i) => {
    const ids = [...state.listed.keys()]
    const pick = (map: Map<string, Chain>) =>
      idMap(ids.flatMap((id) => (map.has(id) ? [[id, map.get(id)!.pages] as const] : [])))
    return {
      apiKey: apiKeys[i]!,
      premium: !state.participants.forbidden,
      activations: state.activations.pages,
      entries: pick(state.entries),
      participants: state.participants.pages,
      completed: pick(state.completed),
      winners: pick(state.winners),
      states: Object.fromEntries(STATES.map((s) => [s, chainOf(state, 'states', s).pages])),
    }
  })
  return {
    format: RECORDING_FORMAT,
    from,
    limits: { ...limits },
    startedAt,
    finishedAt: new Date().toISOString(),
    serverDate,
    accounts,
  }
}
