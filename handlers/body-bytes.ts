// A Fetch Response made with a body wraps it in a stream, and whoever sends it reads it back chunk by
// chunk: for a page of an API whose body is already one array of bytes, that costs more than the rest
// of the answer. The standalone server writes bodies to the socket itself, so for the requests it makes
// it asks for the bytes instead: the handlers answer those with a Response that has the same status,
// and keep the headers and the bytes beside it (undici's Headers sort themselves on every walk through
// them, which costs the server more than a plain object). Every other caller (msw's setupServer,
// setupWorker, getResponse) gets the headers and the body in the Response as usual.

/** What a server that asked for bytes sends: the Response's status, with these headers and this body. */
export type KeptAnswer = { readonly headers: Readonly<Record<string, string>>; readonly body: Uint8Array }

const wantBytes = new WeakSet<Request>()
const kept = new WeakMap<Response, KeptAnswer>()

/**
 * Asks for the headers and body of the answer to `request` as they are, read with `keptAnswerOf`,
 * rather than in the Response (which then has neither). For a caller that writes them out itself.
 * @example askForBodyBytes(request); const response = await getResponse(handlers, request)
 */
export function askForBodyBytes(request: Request): void {
  wantBytes.add(request)
}

/**
 * The Response of an answer: with its headers and its body as a stream, or, when the request asked
 * for them as they are, with its status only, and the headers and body kept for `keptAnswerOf`.
 */
export function responseWithBody(
  request: Request,
  status: number,
  headers: Record<string, string>,
  body: Uint8Array,
): Response {
  if (!wantBytes.has(request)) return new Response(body as BodyInit, { status, headers })
  const response = new Response(null, { status })
  kept.set(response, { headers, body })
  return response
}

/** The headers and body of a response made for a request that asked for them; undefined for any other response. */
export function keptAnswerOf(response: Response): KeptAnswer | undefined {
  return kept.get(response)
}
