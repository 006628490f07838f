import { StreamedResponse } from '../streamed-response.js'
import type { AdminRoute } from './context.js'

/**
 * `GET /__emulator/dump`: the world as it stands at the clock's instant, as a dump (what `--data` and
 * a sandbox's `data` serve back). Made as it is read, in turns: a large world's dump is never one
 * string in memory, and other requests are answered while it is sent.
 */
export const dumpWorld: AdminRoute = {
  method: 'get',
  path: '/dump',
  what: 'dump the world',
  answer: ({ control }) =>
    new StreamedResponse(control.dump(), { status: 200, headers: { 'content-type': 'application/json' } }),
}
