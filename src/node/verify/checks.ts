import type { z } from 'zod'
import { problemLines } from '../../contract/problems.js'
import type { Fix } from './expected.js'
import type { ProbeOutcome } from './probe.js'
import type { RemoteAnswer } from '../remote/client.js'

/** A confirmed outcome. */
export const confirmed = (detail: string): ProbeOutcome => ({ result: 'confirmed', detail })

/** An outcome that could not be checked with this account, and why. */
export const notCheckable = (detail: string): ProbeOutcome => ({ result: 'not-checkable', detail })

/** A difference: what the real API did, the request that showed it, and the setting that matches it, if any. */
export function differs(detail: string, request: string, fix?: Fix, setting?: string): ProbeOutcome {
  return { result: 'differs', detail, request, ...(fix ? { fix } : {}), ...(setting ? { setting } : {}) }
}

/** A body's text, cut short for a report's cell. */
function short(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** An answer in a few words: `404 {"error":"..."}`. */
export function answerText(answer: RemoteAnswer): string {
  return answer.text === '' ? `${answer.status} with no body` : `${answer.status} ${short(answer.text)}`
}

/** The message of an answer whose body is exactly `{"error": "<message>"}`, else null. */
export function errorMessage(answer: RemoteAnswer): string | null {
  const body = answer.body
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null
  const keys = Object.keys(body)
  const error = (body as { error?: unknown }).error
  return keys.length === 1 && typeof error === 'string' ? error : null
}

/**
 * What is wrong with an answer that should be `status` with the body `{"error": "<message>"}` in JSON,
 * or null when it is so.
 */
export function errorProblem(answer: RemoteAnswer, status: number): string | null {
  if (answer.status !== status) return `answered ${answerText(answer)}`
  if (errorMessage(answer) === null)
    return `answered ${status} with the body ${short(answer.text) || '(empty)'}, not {"error": "<message>"}`
  const type = answer.headers.get('content-type') ?? ''
  if (!/^application\/json\b/.test(type)) return `answered ${status} with content-type ${type || '(none)'}`
  return null
}

/** The first problems a schema finds in a value, under `where`, or null when it matches. */
export function schemaProblem(schema: z.ZodType, value: unknown, where: string): string | null {
  const result = schema.safeParse(value)
  if (result.success) return null
  const lines = problemLines(result.error.issues, where)
  return lines.slice(0, 2).join('; ') + (lines.length > 2 ? ` (and ${lines.length - 2} more)` : '')
}

/** The `next` of a list answer: a string, null, or undefined when there is none. */
export function nextOf(answer: RemoteAnswer): string | null | undefined {
  const next = (answer.body as { next?: unknown } | undefined)?.next
  return typeof next === 'string' || next === null ? next : undefined
}

/** The array under `key` of a list answer, or null when it is not one. */
export function itemsOf(answer: RemoteAnswer, key: string): Array<Record<string, unknown>> | null {
  const items = (answer.body as Record<string, unknown> | undefined)?.[key]
  return answer.status === 200 && Array.isArray(items) ? (items as Array<Record<string, unknown>>) : null
}
