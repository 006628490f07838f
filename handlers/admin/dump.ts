import { StreamedResponse } from '../streamed-response.js'
import type { AdminRoute } from './context.js'

/**
 * `GET /__emulator/dump`: the world as it stands at the clock's instant, as a dump (what `--data` and
 * a sandbox's `data` serve back). Made as it is read, in turns: a large world's dump is never one
 * string in memory, and other requests are answered while it is sent. At most MAX_DUMPS are sent at
 * once by a host and its sandboxes together (see dump-slots.ts): the next is a 503 with a Retry-After.
 */
export const dumpWorld: AdminRoute = {
  method: 'get',
  path: '/dump',
  what: 'dump the world',
  answer: ({ control, dumps }) => {
    const giveBack = dumps.take()
    try {
      const response = new StreamedResponse(control.dump(), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })
      void response.ended.then(giveBack)
      return response
    } catch (error) {
      giveBack()
      throw error
    }
  },
}
