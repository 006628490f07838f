import type { HttpHandler } from 'msw'
import { DumpSlots } from '../dump-slots.js'
import { endpointHandler } from '../endpoint-handler.js'
import { apiError, malformedPath, methodNotAllowed, notFound } from '../errors.js'
import { mswRuntime } from '../msw-runtime.js'
import { splitUnderBase, urlOf } from '../path.js'
import type { RateLimiter } from '../rate-limit.js'
import { changeAccount, readAccounts } from './accounts.js'
import { addActivation, addEntries } from './added-data.js'
import { AdminHandlers, tokenRefusal } from './admin-handlers.js'
import { errorAnswer } from './answers.js'
import { moveClock, readClock } from './clock.js'
import { ADMIN_PREFIX, type AdminArgs, type AdminContext, type AdminControl, type AdminRoute } from './context.js'
import { addFault, clearFaults, listFaults, removeFault } from './faults.js'
import { clearJournal, readJournal, streamJournal } from './journal.js'
import { readAnsweredBody } from './journal-body.js'
import { readBundle } from './bundle.js'
import { readReport } from './report.js'
import { readOpenApi } from './openapi.js'
import { readState, reset } from './state.js'
import { dumpWorld } from './dump.js'
import { endSandbox, listSandboxes, openSandbox, readSandbox, sandboxAdmin } from './sandboxes.js'
import { viewTheApi } from './view.js'

export { ADMIN_PREFIX } from './context.js'
export { AdminHandlers, type TokenRefusal } from './admin-handlers.js'

/** The control endpoints, each from its own file: the one list the handlers and the 405's `Allow` come from. */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
  readState,
  readOpenApi,
  readAccounts,
  viewTheApi,
  streamJournal,
  reset,
  changeAccount,
  readClock,
  moveClock,
  listFaults,
  addFault,
  clearFaults,
  removeFault,
  readJournal,
  clearJournal,
  readAnsweredBody,
  readReport,
  readBundle,
  addEntries,
  addActivation,
  dumpWorld,
  openSandbox,
  listSandboxes,
  readSandbox,
  endSandbox,
  sandboxAdmin,
]

/** A route's path as a pattern of the path under the admin prefix (`:name` one segment, `*` the rest). */
function patternOf(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : segment))
    .join('/')
  return new RegExp(`^${source}$`)
}

/** Each admin path and the methods it takes, for a 405's `Allow` (`GET, POST`). */
const ALLOWED: ReadonlyArray<[RegExp, string]> = (() => {
  const methods = new Map<string, string[]>()
  for (const route of ADMIN_ROUTES) {
    if (route.method !== 'all') methods.set(route.path, [...(methods.get(route.path) ?? []), route.method])
  }
  return [...methods].map(([path, list]) => [patternOf(path), list.map((m) => m.toUpperCase()).join(', ')])
})()

/**
 * The admin API under `/__emulator` at the origin of `baseUrl`: state, reset, account settings,
 * clock, fault rules, the journal and added data, each a thin door onto the same operation of the
 * emulator. With `token`, every request needs `Authorization: Bearer <token>` (401 otherwise).
 * Admin requests are never rate-limited, never meet fault rules and are never journaled.
 * @example setupServer(...createAdminHandlers(emulator, { baseUrl }), ...emulator.handlers)
 */
export function createAdminHandlers(
  control: AdminControl,
  {
    baseUrl,
    token,
    view = [],
    rateLimiter,
    prefix = ADMIN_PREFIX,
    dumps = new DumpSlots(),
  }: {
    baseUrl: string
    token?: string | undefined
    /** Where the admin API stands at the base URL's origin: `/__emulator`, or a sandbox's `/__emulator/sandboxes/<id>`. */
    prefix?: string
    /** The API's handlers without the journal, rate limits and fault rules: what `GET /view/...` asks. */
    view?: HttpHandler[]
    /** The limiter the API counts with: `GET /accounts` reads what each key has left. */
    rateLimiter?: RateLimiter
    /** The dumps being sent, shared with the admin APIs of the same server (a host's and its sandboxes'). */
    dumps?: DumpSlots
  },
): HttpHandler[] {
  const { http } = mswRuntime()
  const root = `${new URL(baseUrl).origin}${prefix}`
  const ctx: AdminContext = { control, baseUrl, view, rateLimiter, prefix, dumps }
  const refusal = tokenRefusal(token)
  const guarded =
    (what: string, answer: (args: AdminArgs) => Promise<Response> | Response) =>
    async (args: AdminArgs): Promise<Response> => {
      try {
        const refused = refusal(args.request.headers.get('authorization'))
        if (refused !== null) throw apiError(401, refused)
        return await answer(args)
      } catch (error) {
        return errorAnswer(error, what)
      }
    }
  const placeOf = splitUnderBase(root)
  // A world far behind its clock catches up in turns before a route reads it, and after it (one that
  // moved the clock), so that a client that moves the clock and then reads finds it ready.
  const caughtUp = async (route: AdminRoute, args: AdminArgs): Promise<Response> => {
    await control.catchUp?.()
    const answer = await route.answer(ctx, args)
    await control.catchUp?.()
    return answer
  }

  const handlers = [
    // First: msw's own matching of the paths below throws on a path that does not decode.
    endpointHandler(
      (request) => {
        const place = placeOf(urlOf(request))
        return place.under && place.segments === null ? {} : null
      },
      (request, params) =>
        guarded('read the path', () => {
          throw malformedPath(urlOf(request).pathname)
        })({ request, params }),
    ),
    ...ADMIN_ROUTES.map((route) =>
      http[route.method](
        `${root}${route.path}`,
        guarded(
          route.what,
          route.readsWorld === false ? (args) => route.answer(ctx, args) : (args) => caughtUp(route, args),
        ),
      ),
    ),
    // Last: a known path asked with another method is a 405 naming those it takes; any other, a 404.
    http.all(
      `${root}/*`,
      guarded('answer', ({ request }) => {
        const path = new URL(request.url).pathname.slice(prefix.length)
        const allow = ALLOWED.find(([pattern]) => pattern.test(path))?.[1]
        if (allow) throw methodNotAllowed(request.method, `${prefix}${path}`, allow)
        throw notFound(`${prefix}${path}`, 'admin endpoint')
      }),
    ),
  ]
  return new AdminHandlers(refusal, handlers)
}
