import { sendAnswer } from './answer.js'
import { readBody } from './body.js'
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
  const refused = guard(ctx, served) ?? preflight(ctx, served) ?? targetRefusal(ctx)
  if (refused !== undefined) return refused
  // The API's GET and HEAD have no body.
  if (ctx.method !== 'GET' && !ctx.head) {
    const tooLarge = await readBody(ctx)
    if (tooLarge !== undefined) return tooLarge
  }
  const request = requestOf(ctx)
  if (typeof request === 'number') return request
  return sendAnswer(ctx, served, await dispatch(ctx, served, request))
}
