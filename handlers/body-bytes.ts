// A Fetch Response made with a body wraps it in a stream, and whoever sends it reads it back chunk by
// chunk: for a page of an API whose body is already one array of bytes, that costs more than the rest
// of the answer. The standalone server writes bodies to the socket itself, so for the requests it makes
// it asks for the bytes instead: the handlers answer those with a Response that has the same status,
// and keep the headers and the bytes beside it (undici's Headers sort themselves on every walk through
// them, which costs the server more than a plain object). Every other caller (msw's setupServer,
// setupWorker, getResponse) gets the headers and the body in the Response as usual.
import { PlainRequest, type ApiRequest, type KeptAnswer } from './plain-request.js'

export type { KeptAnswer } from './plain-request.js'

/** A request body parsed before the request reached the handlers: the value, or why it is not JSON. */
export type ParsedBody = { value: unknown } | { error: Error }

/**
 * A Request that asks for the headers and body of its answer as they are, read with `keptAnswerOf`,
 * rather than in the Response (which then has neither). For a caller that writes them out itself.
 * A class rather than a mark kept beside the request: a lookup in a WeakSet on every request, and
 * the garbage collector's work for each entry, cost more than an `instanceof`. It carries what the
 * caller knows of the request already: a body it parsed (a server parses a sandbox's large `data` in
 * turns, not in one JSON.parse that would stall its other requests), which the handlers read instead
 * of the body's bytes.
 * @example const response = await getResponse(handlers, new BytesRequest(url, { headers }))
 */
export class BytesRequest extends Request {
  constructor(
    input: string,
    init: RequestInit,
    readonly parsedBody?: ParsedBody,
  ) {
    super(input, init)
  }
}

/** The status-only Response of an answer made for a BytesRequest, with the headers and body beside it. */
class StatusOnlyResponse extends Response {
  constructor(
    status: number,
    readonly kept: KeptAnswer,
  ) {
    super(null, { status })
  }
}

/**
 * The status-only Response of every 200 kept on a PlainRequest: made once, as nothing is ever read of
 * it but its status (its Headers are empty, its body null), which spares each answer a Response's making.
 */
let okOnly: Response | undefined

/**
 * The Response of an answer: with its headers and its body as a stream; when the request is a
 * BytesRequest, with its status only, and the headers and body kept for `keptAnswerOf`; when it is a
 * PlainRequest, with its status only, and the headers and body kept on the request (`keptWith`).
 */
export function responseWithBody(
  request: ApiRequest,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: Uint8Array,
): Response {
  if (request instanceof PlainRequest) {
    const response = status === 200 ? (okOnly ??= new Response(null, { status })) : new Response(null, { status })
    request.keep(response, { headers, body })
    return response
  }
  if (!(request instanceof BytesRequest)) return new Response(body as BodyInit, { status, headers })
  return new StatusOnlyResponse(status, { headers, body })
}

/** The headers and body of a response made for a BytesRequest; undefined for any other response. */
export function keptAnswerOf(response: Response): KeptAnswer | undefined {
  return response instanceof StatusOnlyResponse ? response.kept : undefined
}
