import { bodyOf, json, onlyFields, param } from './answers.js'
import type { AdminRoute } from './context.js'

/** `POST /__emulator/activations/:id/entries`: `{ count }` new entries in that activation; 201 with their ids. */
export const addEntries: AdminRoute = {
  method: 'post',
  path: '/activations/:id/entries',
  what: 'add entries',
  answer: async ({ control }, { request, params }) => {
    const body = await bodyOf(request)
    onlyFields(body, ['count'])
    return json(201, await control.addEntries(param(params['id']), body['count']))
  },
}

/** `POST /__emulator/activations`: a new activation (and its entries); 201 with the ids made. */
export const addActivation: AdminRoute = {
  method: 'post',
  path: '/activations',
  what: 'add the activation',
  answer: async ({ control }, { request }) => json(201, await control.addActivation((await bodyOf(request)) as never)),
}
