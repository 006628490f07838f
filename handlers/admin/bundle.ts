import { apiError, jsonResponse } from '../errors.js'
import type { AdminRoute } from './context.js'

/**
 * `GET /__emulator/bundle`: a reproduction bundle of the emulator as it stands: its world, options,
 * changes, journal and state, API keys named (`activation-emulator replay` stands it up again).
 * `bodies=N` keeps the texts of the last N bodies answered, for a replay's diff.
 */
export const readBundle: AdminRoute = {
  method: 'get',
  path: '/bundle',
  what: 'make a bundle',
  answer: async ({ control }, { request }) => {
    const url = new URL(request.url)
    for (const name of url.searchParams.keys()) {
      if (name !== 'bodies') throw apiError(400, `Unknown parameter ${JSON.stringify(name)}: the bundle takes bodies`)
    }
    const given = url.searchParams.getAll('bodies')
    if (given.length > 1) throw apiError(400, 'bodies was given more than once')
    if (given.length && !/^\d{1,9}$/.test(given[0]!)) {
      throw apiError(400, `bodies must be a whole number, got ${JSON.stringify(given[0])}`)
    }
    const bundle = await control.bundle(given.length ? { bodies: Number(given[0]) } : {})
    return jsonResponse(200, JSON.stringify(bundle), { 'cache-control': 'no-store' })
  },
}
