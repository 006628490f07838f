import type { ArrivedRecord, FaultDecision, HandlerContext } from './context.js'

/**
 * The Response of a fault rule's own answer. Its status, headers and body are the rule's, and a
 * server sends them as they are: never compressed, nothing added but its connection's own (CORS, the
 * body's length, the date).
 */
export class FaultAnswerResponse extends Response {}

/** The statuses whose answers never have a body. */
const NO_BODY = new Set([204, 205, 304])

/**
 * A fault rule's own answer to a request, recorded in the journal: its status, its headers, and its
 * body as sent (none to a HEAD); no `next` or `items`, whatever the body holds, as it is no page of the API.
 */
export function faultAnswer(
  ctx: HandlerContext,
  request: { readonly method: string },
  record: ArrivedRecord,
  started: number,
  answer: NonNullable<FaultDecision['answer']>,
): Response {
  const body = request.method === 'HEAD' || NO_BODY.has(answer.status) ? null : answer.body
  record.status = answer.status
  if (answer.headers.length > 0) record.headers = Object.fromEntries(answer.headers)
  record.durationMs = performance.now() - started
  ctx.record(record, body !== null && body.length > 0 ? body : undefined)
  return new FaultAnswerResponse(body as BodyInit | null, {
    status: answer.status,
    headers: answer.headers as Array<[string, string]>,
  })
}
