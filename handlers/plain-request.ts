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

/**
 * A request as a server received it: its method, its URL (parsed), and its headers as the names and
 * values alternate on the wire (Node's `rawHeaders`). Its answer's headers and body are kept beside a
 * status-only Response, as a BytesRequest's are (see body-bytes.ts).
 * @example new PlainRequest('GET', new URL('https://api.example.test/v1/activations/list'), ['Authorization', 'Api-Key demo-key'])
 */
export class PlainRequest implements ApiRequest {
  readonly url: string
  readonly headers: { get(name: string): string | null }

  constructor(
    readonly method: string,
    /** The URL, parsed: the handlers read it rather than parse `url` again. */
    readonly parsedUrl: URL,
    rawHeaders: readonly string[],
  ) {
    this.url = parsedUrl.href
    this.headers = new PlainHeaders(rawHeaders)
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
