import { EmulatorError, type EmulatorErrorCode } from '../../src/contract/emulator-error.js'
import { BytesRequest } from '../body-bytes.js'
import { ApiError, apiError, errorResponse, jsonResponse } from '../errors.js'
import { nestsTooDeep, TOO_DEEP_MESSAGE } from '../json-depth.js'

/** A JSON answer. */
export const json = (status: number, value: unknown): Response => jsonResponse(status, JSON.stringify(value))

/** A path parameter as text. */
export const param = (value: string | readonly string[] | undefined): string => String(value ?? '')

/** The status of each EmulatorError's code: the one place the admin API turns the library's refusals into statuses. */
const STATUS_OF_CODE: Record<EmulatorErrorCode, number> = {
  bad_option: 400,
  bad_input: 400,
  unknown_account: 404,
  unknown_activation: 404,
  unknown_fault_rule: 404,
  unknown_sandbox: 404,
  // A quota of the caller's, as a rate limit is: ending a sandbox makes room.
  too_many_sandboxes: 429,
}

/**
 * An error as the admin API's `{"error"}` answer: an ApiError as it says, an EmulatorError (what the
 * emulator refused) with its code's status, and anything else, the emulator's own failure, as a 500
 * `Failed to <what>: <why>`, logged.
 */
export function errorAnswer(error: unknown, what: string): Response {
  if (error instanceof ApiError) return errorResponse(error)
  const message = error instanceof Error ? error.message : String(error)
  // Libraries list problems on lines of their own; an answer says them on one.
  const line = message
    .trim()
    .replace(/:\s*\n\s*/g, ': ')
    .replace(/\s*\n\s*/g, '; ')
  if (error instanceof EmulatorError) return errorResponse(apiError(STATUS_OF_CODE[error.code], line))
  console.error(`activation-emulator: Failed to ${what}:`, error)
  return errorResponse(apiError(500, `Failed to ${what}: ${line}`))
}

/**
 * The request's JSON body as an object: `{}` when there is none, a 400 when it is not a JSON object.
 * A body the server parsed already comes with its BytesRequest. A body nested deeper than
 * MAX_JSON_DEPTH is a 400 too, before it is parsed.
 */
export async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  const parsed = request instanceof BytesRequest ? request.parsedBody : undefined
  let value: unknown
  if (parsed && 'error' in parsed) throw invalidJson(parsed.error)
  if (parsed) value = parsed.value
  else {
    const text = await request.text()
    if (text.trim() === '') return {}
    if (nestsTooDeep(text)) throw apiError(400, TOO_DEEP_MESSAGE)
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw invalidJson(error as Error)
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw apiError(
      400,
      `Malformed body: it must be a JSON object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`,
    )
  }
  return value as Record<string, unknown>
}

function invalidJson(error: Error) {
  return apiError(400, `Malformed body: it must be a JSON object, got invalid JSON (${error.message})`)
}

/** Throws a 400 naming the first field of `body` that is not one of `known`. */
export function onlyFields(body: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(body).find((k) => !known.includes(k))
  if (unknown !== undefined)
    throw apiError(400, `Unknown field ${JSON.stringify(unknown)}: the body takes ${known.join(', ')}`)
}
