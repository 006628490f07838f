import { jsonResponse } from '../errors.js'
import type { AdminRoute } from './context.js'

/**
 * `GET /__emulator/bundle`: a reproduction bundle of the emulator as it stands: its world, options,
 * changes, journal and state, API keys named (`activation-emulator replay` stands it up again).
 */
export const readBundle: AdminRoute = {
  method: 'get',
  path: '/bundle',
  what: 'make a bundle',
  answer: async ({ control }) =>
    jsonResponse(200, JSON.stringify(await control.bundle()), { 'cache-control': 'no-store' }),
}
