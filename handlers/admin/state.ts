import { json } from './answers.js'
import type { AdminRoute } from './context.js'

/** `GET /__emulator/state`: the emulator's state (scenario, clock, accounts, counts, fault rules). */
export const readState: AdminRoute = {
  method: 'get',
  path: '/state',
  what: 'read the state',
  answer: async ({ control }) => {
    await control.countsReady?.()
    return json(200, control.state())
  },
}

/** `POST /__emulator/reset`: the world, clock, settings, rules and journal as the emulator was created; its state. */
export const reset: AdminRoute = {
  method: 'post',
  path: '/reset',
  what: 'reset',
  readsWorld: false,
  answer: async ({ control }) => {
    await control.reset()
    return json(200, control.state())
  },
}
