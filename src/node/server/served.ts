import { AdminHandlers } from '../../../handlers/admin/index.js'
import type { MswRuntime } from '../../../handlers/msw-adapter.js'
import { mswRuntime } from '../../../handlers/msw-runtime.js'
import type { Emulator } from '../../emulator/emulator.js'
import { inspectorHandlers } from '../inspector-handlers.js'
import { adminGuardOf, isLoopback, type AdminGuard } from './admin-guard.js'
import { DataGate } from './data-gate.js'
import type { ServeOptions } from './options.js'
import { TargetUrls } from './target-urls.js'

/** What every request's answer needs of the server, worked out once when it starts. */
export type Served = {
  /** The handlers of a request under the admin prefix (when the admin API is on): the admin API's before the API's. */
  adminFirst: Emulator['handlers']
  /** The API's own handlers (EndpointHandlers, which make no copy of a request). */
  apiHandlers: Emulator['handlers']
  /** Each request target's URL at the origin of the emulator's base URL, where each request is rewritten. */
  urls: TargetUrls
  cors: string | false
  corsHeaders: Readonly<Record<string, string>>
  /** The admin API's doors against other pages: null when the admin API is off. */
  adminGuard: AdminGuard | null
  /** The msw the handlers run on. */
  msw: MswRuntime
  /** Where the bodies that open a sandbox with large data wait to be read one at a time. */
  dataGate: DataGate
}

/**
 * What a server of `emulator` on `host` answers with.
 * @example const served = await servedOf(emulator, '127.0.0.1', {})
 */
export async function servedOf(emulator: Emulator, host: string, options: ServeOptions): Promise<Served> {
  const cors = options.cors ?? '*'
  const admin = options.admin ?? (isLoopback(host) || emulator.adminProtected)
  // The admin paths sit outside the base path, so they come before the API's catch-all 404.
  // The inspector page (`/__emulator/`) comes with the admin API it calls, and goes with it. msw runs
  // every handler before the one that answers (a URL parse, the cookies, a path match each), so a
  // request outside the admin prefix, which no admin or inspector handler matches, is given the API's alone.
  const adminFirst = admin
    ? [
        ...(await inspectorHandlers(emulator.baseUrl, emulator.adminHandlers)),
        ...emulator.adminHandlers,
        ...emulator.handlers,
      ]
    : emulator.handlers
  return {
    adminFirst,
    apiHandlers: emulator.handlers,
    // Requests are rewritten onto the emulator's own base URL: its path is the server's base path.
    urls: new TargetUrls(new URL(emulator.baseUrl).origin),
    cors,
    corsHeaders: corsHeadersOf(cors),
    adminGuard: admin ? adminGuardOf(host, options, AdminHandlers.tokenCheckOf(emulator.adminHandlers)) : null,
    msw: mswRuntime(),
    dataGate: new DataGate(),
  }
}

/** The CORS headers of every answer: the allowed origin, and `Vary: Origin` unless any origin is. */
function corsHeadersOf(cors: string | false): Record<string, string> {
  if (cors === false) return {}
  return cors === '*'
    ? { 'access-control-allow-origin': cors }
    : { 'access-control-allow-origin': cors, vary: 'Origin' }
}
