import type { AdminRoute } from './context.js'

const utf8 = new TextEncoder()

/** `GET /__emulator/dump`: the world as it stands at the clock's instant, as a dump (what `--data` and a sandbox's `data` serve back). */
export const dumpWorld: AdminRoute = {
  method: 'get',
  path: '/dump',
  what: 'dump the world',
  answer: ({ control }) => {
    const chunks = control.dump()[Symbol.iterator]()
    // Streamed a piece at a time: a large world's dump is never one string in memory.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.next()
        if (next.done) controller.close()
        else controller.enqueue(utf8.encode(next.value))
      },
    })
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })
  },
}
