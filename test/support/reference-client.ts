import { ask, itemsOf, retryIn, withNext, type Answer, type Api, type Body } from './api-client.js'

// A well-behaved client of the API, as the report card expects one: a pacer that keeps within the
// rate limit it was told, a retry policy, and a paging loop. The report card's tests run it in every
// world in which a faulty client is caught, and it must keep every rule there.

/** How long the client waits after a first 429, 5xx or dropped connection; each wait after it doubles. */
const FIRST_WAIT_MS = 1000
/** The most tries of one request: a 5xx or a 429 that lasts longer is the API's problem, not a page to skip. */
const MOST_TRIES = 6

/** A refusal the client does not retry (a 401, a 403, a 400...), or a retry that gave up. */
class Refused extends Error {
  constructor(readonly answer: Answer) {
    super(`${answer.status}: ${answer.body.error ?? '(no message)'}`)
  }
}

/** Keeps within `limit` requests per `windowSeconds`: after `limit` requests, waits a whole window. */
class Pacer {
  readonly #limit: { limit: number; windowSeconds: number }
  readonly #sleep: (ms: number) => Promise<void>
  #sent = 0

  constructor(limit: { limit: number; windowSeconds: number }, sleep: (ms: number) => Promise<void>) {
    this.#limit = limit
    this.#sleep = sleep
  }

  async beforeRequest(): Promise<void> {
    if (this.#sent === this.#limit.limit) {
      await this.#sleep(this.#limit.windowSeconds * 1000)
      this.#sent = 0
    }
    this.#sent++
  }
}

/**
 * One request at a time, paced when the client knows the account's rate limit; a 429 waited out as
 * its message says, and longer each time they repeat; a 5xx or a dropped connection tried again after
 * a wait that doubles; any other answer (200, 401, 403...) returned as it is.
 */
export class ReferenceClient {
  readonly #api: Api
  readonly #pacer: Pacer | null

  constructor(api: Api, rateLimit?: { limit: number; windowSeconds: number }) {
    this.#api = api
    this.#pacer = rateLimit ? new Pacer(rateLimit, api.sleep) : null
  }

  async get(path: string): Promise<Answer> {
    let wait = FIRST_WAIT_MS
    for (let tries = 1; ; tries++) {
      await this.#pacer?.beforeRequest()
      const answer = await ask(this.#api, path)
      const transient = answer.status === 429 || answer.status === 0 || answer.status >= 500
      if (!transient) return answer
      if (tries === MOST_TRIES) throw new Refused(answer)
      await this.#api.sleep(Math.max(wait, (retryIn(answer) ?? 0) * 1000))
      wait *= 2
    }
  }

  /** Every page of the list at `path`, following `next` to the last; a refusal throws `Refused`. */
  async *pages(path: string): AsyncGenerator<Body> {
    let next: string | null = null
    do {
      const answer = await this.get(next === null ? path : withNext(path, next))
      if (answer.status !== 200) throw new Refused(answer)
      yield answer.body
      next = answer.body.next ?? null
    } while (next !== null)
  }
}

/**
 * What the reference client does in a run: every activation, the entries of the first running one,
 * and every participant (none when the plan has no participants list). A 401 ends the run: the key
 * will not work on a second try.
 */
export async function referenceRun(api: Api, rateLimit?: { limit: number; windowSeconds: number }): Promise<void> {
  const client = new ReferenceClient(api, rateLimit)
  try {
    for await (const _ of client.pages('/activations/list?limit=10'));
    const running = await client.get('/activations/list?state=running&limit=1')
    const id = itemsOf(running.body)[0]?.id
    if (id !== undefined) for await (const _ of client.pages(`/activations/${encodeURIComponent(id)}?limit=100`));
    for await (const _ of client.pages('/experience/participants?limit=100&start_date=2026-05-01'));
  } catch (error) {
    if (!(error instanceof Refused) || ![401, 403].includes(error.answer.status)) throw error
  }
}
