import { encodingProblem } from './path.js'

/** An answer that ends a request early: its status, its `{"error": message}` body and any headers. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/**
 * The error to throw from an endpoint: the response is the spec's `{"error": "<message>"}`.
 * @example throw apiError(400, 'limit must be an integer from 1 to 100, got "abc"')
 */
export function apiError(status: number, message: string, headers?: Record<string, string>): ApiError {
  return new ApiError(status, message, headers)
}

/**
 * The 404 of a path that no endpoint answers (`admin endpoint` under the admin prefix).
 * @example notFound('/nowhere').message // 'Not found: no endpoint at /nowhere'
 */
export function notFound(path: string, what: 'endpoint' | 'admin endpoint' = 'endpoint'): ApiError {
  return apiError(404, `Not found: no ${what} at ${path}`)
}

/**
 * The 400 of a path whose percent-encoding is broken: it names no endpoint and no id.
 * @example malformedPath('/activations/%zz').message
 */
export function malformedPath(path: string): ApiError {
  return apiError(400, `Malformed path: ${path} is not valid percent-encoding: ${encodingProblem(path)}`)
}

/**
 * The 405 of a method a path does not take: the message names the methods to `use`, the `Allow`
 * header lists `allow` (the API's `GET, HEAD`, whose message says `use GET`).
 * @example methodNotAllowed('POST', '/activations/list', 'GET', 'GET, HEAD')
 */
export function methodNotAllowed(method: string, path: string, use: string, allow = use): ApiError {
  return apiError(405, `Method ${method} is not allowed on ${path}: use ${use}`, { allow })
}

/** A JSON response from a body already serialized. Every answer of the API is `application/json`. */
export function jsonResponse(
  status: number,
  body: string | Uint8Array | null,
  headers: Record<string, string> = {},
): Response {
  return new Response(body as BodyInit | null, { status, headers: { 'content-type': 'application/json', ...headers } })
}

const ENCODER = new TextEncoder()

/** The one `{"error": "<message>"}` body of every error answer, in-process and over HTTP. */
export function errorBody(message: string): string {
  return JSON.stringify({ error: message })
}

/** The message of a 415 for an admin request whose body is not JSON (the server's check and the inspector's). */
export function notJsonMessage(contentType: string | null | undefined): string {
  return `Unsupported Content-Type ${JSON.stringify(contentType ?? '')}: the admin API takes bodies of Content-Type: application/json`
}

/** The body of an ApiError's response, as bytes. */
export function errorBytes(error: ApiError): Uint8Array {
  return ENCODER.encode(errorBody(error.message))
}

/** The response of an ApiError. */
export function errorResponse(error: ApiError, headers: Record<string, string> = {}): Response {
  return jsonResponse(error.status, errorBytes(error), { ...headers, ...error.headers })
}
