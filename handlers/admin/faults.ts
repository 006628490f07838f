import { bodyOf, json, param } from './answers.js'
import type { AdminRoute } from './context.js'

/** `GET /__emulator/faults`: the fault rules with their counts. */
export const listFaults: AdminRoute = {
  method: 'get',
  path: '/faults',
  what: 'list the fault rules',
  answer: ({ control }) => json(200, { faults: control.faults.list() }),
}

/** `POST /__emulator/faults`: adds a fault rule; 201 with the rule. */
export const addFault: AdminRoute = {
  method: 'post',
  path: '/faults',
  what: 'add the fault rule',
  answer: async ({ control }, { request }) => json(201, control.faults.add((await bodyOf(request)) as never)),
}

/** `DELETE /__emulator/faults`: removes every fault rule. */
export const clearFaults: AdminRoute = {
  method: 'delete',
  path: '/faults',
  what: 'remove the fault rules',
  answer: ({ control }) => {
    control.faults.clear()
    return json(200, { faults: [] })
  },
}

/** `DELETE /__emulator/faults/:id`: removes one fault rule; the rule removed. */
export const removeFault: AdminRoute = {
  method: 'delete',
  path: '/faults/:id',
  what: 'remove the fault rule',
  answer: ({ control }, { params }) => json(200, control.faults.remove(param(params['id']))),
}
