import { sendAnswer } from './answer.js'
import { leaveBodyUnread, opensSandboxWithLargeBody, readBody } from './body.js'
import { dispatch, dispatchPlain } from './dispatch.js'
import { guard } from './guard.js'
import { preflight } from './preflight.js'
import type { RequestContext } from './request-context.js'
import { requestOf, targetRefusal } from './request.js'
import type { Served } from './served.js'

/**
 * Answers one request through its stages, each in its own file: the admin guard, the CORS preflight,
 * the target's checks, the body, the Fetch Request, the handlers' dispatch and the answer. A stage
 * that answers ends the request there. Returns the status sent: at once when every stage was done at
 * once (a page answered as the handlers kept it), else a promise of it. A stage may throw.
 */
export function answerRequest(ctx: RequestContext, served: Served): number | Promise<number> {
  // Only the admin API's writes read a body (the API is GET and HEAD alone): any other request is
  // answered from its headers, its body left unread, and its connection closes after the answer.
  const readsBody = ctx.admin && ctx.method !== 'GET' && !ctx.head
  if (!readsBody) leaveBodyUnread(ctx)
  const refused = guard(ctx, served) ?? preflight(ctx, served) ?? targetRefusal(ctx)
  if (refused !== undefined) return refused
  if (!readsBody) return answerAsRead(ctx, served)
  if (opensSandboxWithLargeBody(ctx)) return served.dataGate.run(() => readAndAnswer(ctx, served))
  return readAndAnswer(ctx, served)
}

/** The body stage, then the rest. */
async function readAndAnswer(ctx: RequestContext, served: Served): Promise<number> {
  // A client that went away while its request waited its turn has nothing more to read.
  if (ctx.req.destroyed) return 0
  const tooLarge = await readBody(ctx)
  if (tooLarge !== undefined) return tooLarge
  return answerAsRead(ctx, served)
}

/** The request, dispatch and answer stages: asked of the API's handlers directly when they can answer it. */
function answerAsRead(ctx: RequestContext, served: Served): number | Promise<number> {
  const plain = dispatchPlain(ctx, served)
  if (plain === undefined) return answerThroughMsw(ctx, served)
  if (plain instanceof Promise) return plain.then((response) => sendAnswer(ctx, served, response ?? undefined))
  return sendAnswer(ctx, served, plain ?? undefined)
}

/** The request made a Fetch Request, dispatched through msw's way. */
async function answerThroughMsw(ctx: RequestContext, served: Served): Promise<number> {
  const request = requestOf(ctx)
  if (typeof request === 'number') return request
  return sendAnswer(ctx, served, await dispatch(ctx, served, request))
}
