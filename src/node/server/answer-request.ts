import { sendAnswer } from './answer.js'
import { leaveBodyUnread, readBody } from './body.js'
import { dispatch } from './dispatch.js'
import { guard } from './guard.js'
import { preflight } from './preflight.js'
import type { RequestContext } from './request-context.js'
import { requestOf, targetRefusal } from './request.js'
import type { Served } from './served.js'

/**
 * Answers one request through its stages, each in its own file: the admin guard, the CORS preflight,
 * the target's checks, the body, the Fetch Request, the handlers' dispatch and the answer. A stage
 * that answers ends the request there; resolves to the status sent.
 */
export async function answerRequest(ctx: RequestContext, served: Served): Promise<number> {
  // Only the admin API's writes read a body (the API is GET and HEAD alone): any other request is
  // answered from its headers, its body left unread, and its connection closes after the answer.
  const readsBody = ctx.admin && ctx.method !== 'GET' && !ctx.head
  if (!readsBody) leaveBodyUnread(ctx)
  const refused = guard(ctx, served) ?? preflight(ctx, served) ?? targetRefusal(ctx)
  if (refused !== undefined) return refused
  if (readsBody) {
    const tooLarge = await readBody(ctx)
    if (tooLarge !== undefined) return tooLarge
  }
  const request = requestOf(ctx)
  if (typeof request === 'number') return request
  return sendAnswer(ctx, served, await dispatch(ctx, served, request))
}
