// A Fetch Response made with a body wraps it in a stream, and whoever sends it reads it back chunk by
// chunk: for a page of an API whose body is already one array of bytes, that costs more than the rest
// of the answer. The standalone server writes bodies to the socket itself, so for the requests it makes
// it asks for the bytes instead: the handlers answer those with a Response that has the same status and
// headers and no stream, and keep the bytes beside it. Every other caller (msw's setupServer,
// setupWorker, getResponse) gets the body in the Response as usual.

const wantBytes = new WeakSet<Request>()
const bytes = new WeakMap<Response, Uint8Array>()

/**
 * Asks for the body of the answer to `request` as bytes, read with `bodyBytesOf`, rather than as the
 * Response's stream (which is then absent). For a caller that writes the bytes out itself.
 * @example askForBodyBytes(request); const response = await getResponse(handlers, request)
 */
export function askForBodyBytes(request: Request): void {
  wantBytes.add(request)
}

/**
 * The Response of an answer with `body`: with the body as its stream, or, when the request asked for
 * bytes, without one, and the bytes kept for `bodyBytesOf`.
 */
export function responseWithBody(request: Request, body: Uint8Array, init: ResponseInit): Response {
  if (!wantBytes.has(request)) return new Response(body as BodyInit, init)
  const response = new Response(null, init)
  bytes.set(response, body)
  return response
}

/** The bytes of a response made for a request that asked for them; undefined for any other response. */
export function bodyBytesOf(response: Response): Uint8Array | undefined {
  return bytes.get(response)
}
