import { ask, itemsOf, retryIn, withNext, type Answer, type Api } from './api-client.js'
import { ReferenceClient } from './reference-client.js'

// Small clients of the API, each with one defect a report card rule names, written as a user would
// write them with fetch; every other rule they keep. The report card's tests run each in a world that
// makes its defect show.

/** Walks the list at `path` to its last page, one request a page; each refused page is `onRefused`'s to answer. */
async function walk(
  api: Api,
  path: string,
  onRefused: (answer: Answer, tries: number) => Promise<boolean> = async () => false,
): Promise<Array<{ id: string }>> {
  const items: Array<{ id: string }> = []
  let next: string | null = null
  do {
    const url = next === null ? path : withNext(path, next)
    let answer = await ask(api, url)
    for (let tries = 1; answer.status !== 200; tries++) {
      if (!(await onRefused(answer, tries))) throw new Error(`${answer.status}: ${answer.body.error}`)
      answer = await ask(api, url)
    }
    items.push(...itemsOf(answer.body))
    next = answer.body.next ?? null
  } while (next !== null)
  return items
}

/** Waits one second after a 429, whatever seconds its message says. */
export async function ignoresRetryAfter(api: Api): Promise<void> {
  await walk(api, '/activations/list?limit=10', async (answer) => {
    if (answer.status !== 429) return false
    await api.sleep(1000)
    return true
  })
}

/** Waits out each 429 as its message says, but no longer when they repeat. */
export async function noBackOff(api: Api): Promise<void> {
  await walk(api, '/activations/list?limit=10', async (answer) => {
    if (answer.status !== 429) return false
    await api.sleep((retryIn(answer) ?? 1) * 1000)
    return true
  })
}

/** The reference client, not told the account's rate limit: it runs into it, then waits it out. */
export async function exceedsRateLimit(api: Api): Promise<void> {
  const client = new ReferenceClient(api)
  for await (const _ of client.pages('/activations/list?limit=5'));
}

/** Asks for the entries of six activations at once. */
export async function tooManyAtOnce(api: Api): Promise<void> {
  const activations = await walk(api, '/activations/list?limit=100')
  await Promise.all(
    activations.slice(0, 6).map((a) => walk(api, `/activations/${encodeURIComponent(a.id)}?limit=1000`)),
  )
}

/** Asks for every page after the first twice (once to count it, once to read it). */
export async function asksPagesTwice(api: Api): Promise<void> {
  let next: string | null = null
  do {
    const url: string = next === null ? '/activations/list?limit=10' : withNext('/activations/list?limit=10', next)
    if (next !== null) await ask(api, url)
    next = (await ask(api, url)).body.next ?? null
  } while (next !== null)
}

/** Walks the list, then asks for more from the id of the last activation it saw: a `next` it made up. */
export async function madeUpNext(api: Api): Promise<void> {
  const activations = await walk(api, '/activations/list?limit=10')
  await ask(api, withNext('/activations/list?limit=10', activations.at(-1)!.id))
}

/** Reads the first two pages and stops there. */
export async function stopsEarly(api: Api): Promise<void> {
  const first = await ask(api, '/activations/list?limit=10')
  await ask(api, withNext('/activations/list?limit=10', first.body.next!))
}

/** Walks the list with its key, then asks for the latest activation without it. */
export async function omitsTheKey(api: Api): Promise<void> {
  await walk(api, '/activations/list?limit=10')
  await ask(api, '/activations/latest?limit=10', null)
}

/** Takes a 401 for a passing hiccup: asks again twice, a second apart, with the same key. */
export async function retriesA401(api: Api): Promise<void> {
  await walk(api, '/activations/list?limit=10', async (answer, tries) => {
    if (answer.status !== 401 || tries > 2) return false
    await api.sleep(1000 * tries)
    return true
  }).catch(() => undefined)
}

/** Asks for the participants again after the premium feature's 403, as if the plan could change meanwhile. */
export async function retriesThe403(api: Api): Promise<void> {
  await walk(api, '/experience/participants?limit=100', async (answer, tries) => {
    if (answer.status !== 403 || tries > 2) return false
    await api.sleep(1000 * tries)
    return true
  }).catch(() => undefined)
}
