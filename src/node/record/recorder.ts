import { rmSync } from 'node:fs'
import { STATES } from '../../contract/enums.js'
import { RECORDING_FORMAT, type Recording } from '../../world/recording.js'
import type { RemoteClient } from '../remote/client.js'
import { redactKeys } from '../remote/redact.js'
import { AccountChains } from './account-chains.js'
import { activationChains, ITEMS, limitOf, nextPath } from './chains.js'
import { hashKeys, type ChainKind, type CheckpointPage, type CheckpointWriter } from './checkpoint.js'
import { advance, checkPage } from './page-rules.js'
import { readRecordedAccounts } from './read-recording.js'
import { RecordedIds } from './recorded-ids.js'
import { RecordInterruptedError } from './record-interrupted-error.js'
import { checkRecordOptions, type RecordLimits, type RecordOptions } from './record-options.js'
import { openRunCheckpoint } from './resume.js'

// The walker of `record`: every page of every list of each account, through the polite client, each
// page checked, then written to the checkpoint before it counts as done. The lists of different
// activations are independent chains and run side by side (the client bounds how many requests are in
// flight); the pages of one chain are asked one after the other, each from the `next` of the one
// before, and a filtered list after the list it filters (its items are bounded by that list's). The
// walk keeps no page: the recording is read back from the checkpoint once every list is done.

/**
 * Records each account of `apiKeys` through `client`: every activation, each one's entries (and its
 * completed and winning entries where the type has them), and the participants (none when the account
 * answers 403). Resumes from `checkpoint` when `resume` is set, without asking any recorded page again.
 * @example
 * const client = createRemoteClient({ baseUrl: 'https://api.example.com' })
 * const recording = await recordAccounts({ client, apiKeys: ['KEY'], checkpoint: 'record.ckpt', resume: true })
 */
export async function recordAccounts(options: RecordOptions): Promise<Recording> {
  return new Recorder(options).record()
}

/** One recording of some accounts: its chains, its counts and its run. `record` is called once. */
class Recorder {
  readonly #options: RecordOptions
  readonly #client: RemoteClient
  readonly #apiKeys: string[]
  readonly #checkpoint: string
  readonly #limits: RecordLimits
  readonly #accounts: AccountChains[]
  readonly #ids = new RecordedIds()
  #pages = 0
  #records = 0
  /** The records a resumed checkpoint held: the rate counts this run's only. */
  #recordsBefore = 0
  #serverDate: string | null = null
  #startedAt = ''
  /** `<account> <activation id>` of each activation whose every list is recorded. */
  readonly #activationsDone = new Set<string>()
  #listedCount = 0
  /** The account being recorded (its index). */
  #current = 0
  #writer: CheckpointWriter | null = null
  #runStart = 0
  #stopped = false
  #failure: unknown = null
  /** Aborted on the caller's signal or on the first failure: every request in flight or waiting (a 429's minute) stops. */
  readonly #stop = new AbortController()
  readonly #running = new Set<Promise<void>>()

  constructor(options: RecordOptions) {
    this.#limits = checkRecordOptions(options)
    this.#options = options
    this.#client = options.client
    this.#apiKeys = options.apiKeys
    this.#checkpoint = options.checkpoint
    this.#accounts = options.apiKeys.map(() => new AccountChains())
  }

  async record(): Promise<Recording> {
    const { signal } = this.#options
    if (this.#options.restart) rmSync(this.#checkpoint, { force: true })
    const from = this.#client.baseUrl
    const opened = openRunCheckpoint(
      this.#checkpoint,
      { from, keys: hashKeys(this.#apiKeys), limits: this.#limits },
      new Date().toISOString(),
      this.#options.resume === true,
      (page) => this.#take(page),
    )
    this.#startedAt = opened.startedAt
    if (opened.resumed) {
      this.#recordsBefore = this.#records
      // What the progress counts as done: the activations whose every list the checkpoint holds whole.
      this.#accounts.forEach((account, a) => {
        for (const [id, type] of account.listed()) {
          if (account.isDone(id, type)) this.#activationsDone.add(`${a} ${id}`)
        }
      })
    }
    this.#writer = opened.writer
    this.#runStart = Date.now()

    const onAbort = () => {
      this.#stopped = true
      this.#stop.abort(signal?.reason)
    }
    if (signal?.aborted) onAbort()
    signal?.addEventListener('abort', onAbort)
    try {
      for (this.#current = 0; this.#current < this.#apiKeys.length && !this.#stopped; this.#current++) {
        const current = this.#current
        const list = this.#walkChain(current, 'activations')
        this.#start(list)
        // Each state's list after the whole list, which bounds it.
        this.#start(list.then(() => this.#walkStates(current)))
        for (const [id, type] of this.#accounts[current]!.listed()) this.#start(this.#walkActivation(current, id, type))
        this.#start(this.#walkChain(current, 'participants'))
        while (this.#running.size > 0) await Promise.all([...this.#running])
      }
    } finally {
      signal?.removeEventListener('abort', onAbort)
      this.#writer.close()
      // A checkpoint that holds no page is of no use, and would only stand in the way of the next run.
      // (A failure stops the recording too.)
      if (this.#stopped && this.#pages === 0) rmSync(this.#checkpoint, { force: true })
    }
    if (signal?.aborted) throw new RecordInterruptedError(this.#checkpoint, this.#pages)
    if (this.#failure) throw this.#failure
    this.#current = this.#apiKeys.length - 1
    this.#report()
    const accounts = await readRecordedAccounts(
      this.#checkpoint,
      this.#accounts.map((account, a) => ({
        apiKey: this.#apiKeys[a]!,
        premium: account.premium,
        activationIds: [...account.listed()].map(([id]) => id),
      })),
    )
    return {
      format: RECORDING_FORMAT,
      from,
      limits: { ...this.#limits },
      startedAt: this.#startedAt,
      finishedAt: new Date().toISOString(),
      serverDate: this.#serverDate,
      accounts,
    }
  }

  /**
   * Checks a page (from the upstream or the checkpoint) and takes it into its chain; returns the
   * activations it lists first. Throws, taking nothing, on a page its chain or the ids refuse.
   */
  #take(page: CheckpointPage): Array<[string, string]> {
    if (
      typeof page !== 'object' ||
      page === null ||
      !Object.hasOwn(ITEMS, page.chain) ||
      typeof page.path !== 'string'
    ) {
      throw new Error(`Failed to read the checkpoint ${this.#checkpoint}: a line is not a page of a recording`)
    }
    const account = this.#accounts[page.account]
    if (!account) {
      throw new Error(
        `Failed to read the checkpoint ${this.#checkpoint}: a page of account ${page.account}, which it has no key for`,
      )
    }
    const chain = account.chain(page.chain, page.id)
    const expected = nextPath(chain, page.chain, page.id, this.#limits)
    if (expected !== page.path) {
      throw new Error(
        `Failed to read the checkpoint ${this.#checkpoint}: it holds ${page.path} where ${expected ?? 'no more page'} was due`,
      )
    }
    // The only page kept that is not a 200: the participants' 403 (#walkChain fails on any other).
    if (page.status === 403) {
      this.#pages++
      chain.forbidden = true
      chain.done = true
      return []
    }
    const where = `${page.path} of account ${page.account + 1}`
    const what = `Failed to record ${where}`
    const limit = limitOf(page.chain, this.#limits)
    const checked = checkPage(page.body, page.chain, chain, limit, account.baseOf(page.chain, page.id), what)
    this.#ids.take(page.chain, checked.items, where, what)
    advance(chain, checked, limit)
    this.#pages++
    // (Only the first page of a recording has a date.)
    if (page.date) this.#serverDate = page.date
    if (page.chain === 'activations' || page.chain === 'entries' || page.chain === 'participants') {
      this.#records += checked.items.length
    }
    if (page.chain !== 'activations') return []
    const added = account.list(checked.items as Array<Record<string, unknown>>)
    this.#listedCount += added.length
    return added
  }

  #report(): void {
    const { onProgress } = this.#options
    if (!onProgress) return
    const seconds = (Date.now() - this.#runStart) / 1000
    onProgress({
      pages: this.#pages,
      records: this.#records,
      rate: seconds > 0 ? (this.#records - this.#recordsBefore) / seconds : 0,
      activations: { listed: this.#listedCount, done: this.#activationsDone.size },
      account: this.#current + 1,
      accounts: this.#apiKeys.length,
    })
  }

  /** Walks one chain to its end from where it stands. */
  async #walkChain(account: number, kind: ChainKind, id?: string): Promise<void> {
    const apiKey = this.#apiKeys[account]!
    const chain = this.#accounts[account]!.chain(kind, id)
    for (
      let path = nextPath(chain, kind, id, this.#limits);
      path !== null;
      path = nextPath(chain, kind, id, this.#limits)
    ) {
      if (this.#stopped) return
      const answer = await this.#client.request(path, { apiKey, signal: this.#stop.signal })
      const page: CheckpointPage = {
        account,
        chain: kind,
        id,
        path,
        status: answer.status,
        body: answer.body,
      }
      if (this.#pages === 0) {
        const date = answer.headers.get('date')
        if (date && !Number.isNaN(Date.parse(date))) page.date = new Date(date).toISOString()
      }
      const forbidden = kind === 'participants' && answer.status === 403 && chain.pages === 0
      if (answer.status !== 200 && !forbidden) {
        throw new Error(
          `Failed to record ${path} of account ${account + 1}: the upstream answered ${answer.status} ${redactKeys(answer.text, this.#apiKeys).slice(0, 200)}`,
        )
      }
      const added = this.#take(page)
      this.#writer!.append(page, forbidden ? undefined : answer.text)
      for (const [itemId, type] of added) this.#start(this.#walkActivation(account, itemId, type))
      this.#report()
    }
  }

  /** Walks the activations list of each state. */
  async #walkStates(account: number): Promise<void> {
    await Promise.all(STATES.map((state) => this.#walkChain(account, 'states', state)))
  }

  /** Walks an activation's lists: its entries, and its completed and winning entries where its type has them. */
  async #walkActivation(account: number, id: string, type: string): Promise<void> {
    const [entries, ...filtered] = activationChains(type)
    await this.#walkChain(account, entries!, id)
    await Promise.all(filtered.map((kind) => this.#walkChain(account, kind, id)))
    if (!this.#stopped) {
      this.#activationsDone.add(`${account} ${id}`)
      this.#report()
    }
  }

  /** Runs a walk beside the others; the first to fail stops them all. */
  #start(task: Promise<void>): void {
    const tracked = task.catch((error: unknown) => {
      if (!this.#stopped) this.#failure = error
      this.#stopped = true
      this.#stop.abort(error)
    })
    this.#running.add(tracked)
    void tracked.finally(() => this.#running.delete(tracked))
  }
}
