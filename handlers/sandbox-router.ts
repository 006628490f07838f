import { apiKeyOf } from '../src/contract/api-key.js'
import { endpointHandler, type EndpointHandler } from './endpoint-handler.js'
import { apiError, errorResponse, notFound } from './errors.js'
import { splitUnderBase, urlOf } from './path.js'
import type { ApiRequest } from './plain-request.js'

/** Where a sandbox's requests go: its handlers at the URL asked, and what to tell it that it was used. */
export type SandboxRoute = {
  /** The sandbox's API handlers under the host's base URL (for a request routed by its key). */
  keyed: readonly EndpointHandler[]
  /** The same under its own base URL, `<base URL>/sandboxes/<id>`. */
  prefixed: readonly EndpointHandler[]
  /** Marks it used now (its time to live starts again). */
  touch(): void
  /** Once it has ended: its requests' 404 message (`Sandbox not found: "id" was ended`). */
  readonly ended?: string | undefined
}

/** What the router asks of an emulator's sandboxes: each found by id or by key, or why not. */
export type SandboxRoutes = {
  /** Whether any sandbox is held or was ended lately: while not, the router lets every request by. */
  readonly active: boolean
  /** The sandbox of that id; a message (`Sandbox not found: ...`) when there is none. */
  byId(id: string): SandboxRoute | string
  /** The sandbox whose key that is; a message when its sandbox has ended; undefined for any other key. */
  byKey(key: string): SandboxRoute | string | undefined
  /** Marks a sandbox used and answering a request: it does not expire before `done` is called for it. */
  begin(route: SandboxRoute): void
  /** The request `begin` marked has been answered. */
  done(route: SandboxRoute): void
}

/** A sandbox's answer to a request: the first of its handlers that matches it (the last, a 404, matches all). */
function answerIn(handlers: readonly EndpointHandler[], request: ApiRequest): Response | Promise<Response> {
  for (const handler of handlers) {
    const answer = handler.answerIfMatched(request)
    if (answer !== null) return answer
  }
  return errorResponse(notFound(urlOf(request).pathname))
}

/**
 * The handler that sends the requests of sandboxes to them, ahead of the host's own: a request under
 * `<base URL>/sandboxes/<id>/` goes to that sandbox at its own base URL; a request under the base URL
 * whose API key is a sandbox's goes to that sandbox as it is. An ended or unknown sandbox is a 404
 * that says so. While the host has no sandbox, it matches nothing.
 * @example [sandboxRouter(baseUrl, sandboxes), ...createHandlers(ctx)]
 */
export function sandboxRouter(baseUrl: string, routes: SandboxRoutes): EndpointHandler {
  const placeOf = splitUnderBase(baseUrl)
  return endpointHandler<Found, ApiRequest>(
    (request) => {
      if (!routes.active) return null
      const place = placeOf(urlOf(request))
      if (!place.under) return null
      const segments = place.segments
      if (segments !== null && segments[0] === 'sandboxes' && segments.length >= 2) {
        const route = routes.byId(segments[1] as string)
        return typeof route === 'string' ? { missing: route } : { route, prefixed: true }
      }
      const key = apiKeyOf(request.headers.get('authorization'))
      const route = key === null ? undefined : routes.byKey(key)
      if (route === undefined) return null
      return typeof route === 'string' ? { missing: route } : { route, prefixed: false }
    },
    async (request, found) => {
      if ('missing' in found) return sandboxNotFound(found.missing)
      const { route } = found
      routes.begin(route)
      let answer: Response
      try {
        answer = await answerIn(found.prefixed ? route.prefixed : route.keyed, request)
      } finally {
        routes.done(route)
      }
      // A request that began in a sandbox finishes in it: one ended while it was answered (a delay,
      // a fault's latency) no longer holds its data, and the answer is the ended sandbox's 404.
      return route.ended === undefined ? answer : sandboxNotFound(route.ended)
    },
  )
}

/** Where the router found a request to go: a sandbox (at its own base URL, or at the host's), or why none. */
type Found = { route: SandboxRoute; prefixed: boolean } | { missing: string }

/** The 404 of an ended or unknown sandbox. */
function sandboxNotFound(message: string): Response {
  return errorResponse(apiError(404, message))
}
