import type { HttpHandler } from 'msw'
import type { HandlerContext } from './context.js'
import { getActivation } from './api/get-activation.js'
import { latestActivation } from './api/latest-activation.js'
import { listActivations } from './api/list-activations.js'
import { listParticipants } from './api/list-participants.js'
import { notFound } from './api/not-found.js'

export type {
  AccountSettings,
  EndpointName,
  EndpointOptions,
  FaultDecision,
  HandlerContext,
  UnsupportedFilter,
} from './context.js'

/** The API's handlers, in matching order: the fixed paths before `/activations/:id`, the catch-all 404 last. */
export function createHandlers(ctx: HandlerContext): HttpHandler[] {
  return [listActivations(ctx), latestActivation(ctx), getActivation(ctx), listParticipants(ctx), ...notFound(ctx)]
}
