// What the API's handlers read of a request is its method, its URL and a header or two. A Fetch
// Request has them, and msw hands the handlers one; building one costs a server more than the rest of
// a list page's answer (an AbortSignal, a header list, the URL parsed again). A server that has the
// request's parts already hands the API's handlers a PlainRequest instead, which holds them as they are.

/** What the API's handlers read of a request: a Fetch Request is one, and so is a PlainRequest. */
export type ApiRequest = {
  readonly method: string
  readonly url: string
  readonly headers: { get(name: string): string | null }
}

/** What a server that asked for bytes sends: the Response's status, with these headers and this body. */
export type KeptAnswer = { readonly headers: Readonly<Record<string, string>>; readonly body: Uint8Array }

/**
 * A request as a server received it: its method, its URL (parsed), and its headers as the names and
 * values alternate on the wire (Node's `rawHeaders`). The handler that answers it with a body keeps
 * the answer's headers and body on it, beside a status-only Response (see body-bytes.ts), for the
 * server to write out.
 * @example new PlainRequest('GET', new URL('https://api.example.test/v1/activations/list'), ['Authorization', 'Api-Key demo-key'])
 */
export class PlainRequest implements ApiRequest {
  readonly url: string
  readonly headers: { get(name: string): string | null }
  #kept: KeptAnswer | undefined = undefined
  #keptWith: Response | undefined = undefined

  constructor(
    readonly method: string,
    /** The URL, parsed: the handlers read it rather than parse `url` again. */
    readonly parsedUrl: URL,
    rawHeaders: readonly string[],
  ) {
    this.url = parsedUrl.href
    this.headers = new PlainHeaders(rawHeaders)
  }

  /** Keeps the headers and body of `response`, a status-only answer to this request. */
  keep(response: Response, kept: KeptAnswer): void {
    this.#kept = kept
    this.#keptWith = response
  }

  /**
   * The headers and body kept with `response`; undefined for any other answer (one that replaced it
   * on the way out, such as a sandbox's 404 once the sandbox ended).
   */
  keptWith(response: Response): KeptAnswer | undefined {
    return response === this.#keptWith ? this.#kept : undefined
  }
}

/** A request's headers as a server received them, read as a Fetch Request's `headers.get` reads them. */
class PlainHeaders {
  readonly #raw: readonly string[]

  constructor(raw: readonly string[]) {
    this.#raw = raw
  }

  get(name: string): string | null {
    return headerOf(this.#raw, name)
  }
}

/**
 * A header's value as a Fetch Request's `headers.get(name)` gives it: its name matched whatever its
 * case, the values of a header sent more than once joined by `, ` in their order; null when absent.
 */
function headerOf(raw: readonly string[], name: string): string | null {
  const lower = name.toLowerCase()
  let value: string | null = null
  for (let i = 0; i < raw.length; i += 2) {
    const rawName = raw[i] as string
    if (rawName.length !== lower.length || rawName.toLowerCase() !== lower) continue
    value = value === null ? (raw[i + 1] as string) : `${value}, ${raw[i + 1] as string}`
  }
  return value
}
