// What the report card's test clients share: where the API is, the key a client was given, how it
// waits, and one plain request with fetch, as a user would write it.

/** The API as a client sees it. */
export type Api = {
  /** The base URL, without a trailing slash. */
  baseUrl: string
  /** The API key the client was given. */
  key: string
  /** Waits `ms` milliseconds: the test moves the emulator's clock on, where a client in production would sleep. */
  sleep(ms: number): Promise<void>
}

/** A list page or an `{"error"}` body, as the clients read them. */
export type Body = {
  next?: string | null
  error?: string
  activations?: Array<{ id: string }>
  entries?: Array<{ id: string }>
  participants?: Array<{ id: string }>
}

/** An answer: its status and its JSON body (status 0: the connection dropped before an answer). */
export type Answer = { status: number; body: Body }

/**
 * GET `path` (under the base URL) with `Authorization: Api-Key <key>`; `key` null sends no header. A
 * connection dropped before the answer or within its body is status 0.
 */
export async function ask(api: Api, path: string, key: string | null = api.key): Promise<Answer> {
  let response: Response
  let text: string
  try {
    response = await fetch(`${api.baseUrl}${path}`, key === null ? {} : { headers: { Authorization: `Api-Key ${key}` } })
    text = await response.text()
  } catch {
    return { status: 0, body: {} }
  }
  let body: Body = {}
  try {
    body = JSON.parse(text) as Body
  } catch {
    // A cut or non-JSON body: the status says what happened.
  }
  return { status: response.status, body }
}

/** The seconds a 429's message says to wait (`Retry in 60 seconds.`); undefined when it says none. */
export function retryIn(answer: Answer): number | undefined {
  const said = /retry in (\d+) seconds?/i.exec(answer.body.error ?? '')
  return said ? Number(said[1]) : undefined
}

/** The items of a list page, whichever list it is. */
export const itemsOf = (body: Body): Array<{ id: string }> =>
  body.activations ?? body.entries ?? body.participants ?? []

/** `path` with `next` added to its query. */
export const withNext = (path: string, next: string): string =>
  `${path}${path.includes('?') ? '&' : '?'}next=${encodeURIComponent(next)}`
