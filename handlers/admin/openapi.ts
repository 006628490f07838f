import { json } from './answers.js'
import { calledAt } from './called-at.js'
import type { AdminRoute } from './context.js'

/**
 * `GET /__emulator/openapi.json`: the OpenAPI document, naming as its server the URL this request
 * reached: the base URL's path at the host it was sent to (a standalone server's own address, or a
 * sandbox's under it), so that a client generated from it is sent to this emulator.
 */
export const readOpenApi: AdminRoute = {
  method: 'get',
  path: '/openapi.json',
  what: 'write the OpenAPI document',
  answer: async ({ baseUrl }, { request }) => {
    // Loaded when asked: a page that runs the emulator in a browser does not download the document's code.
    const { openApiDocument } = await import('../../src/contract/openapi.js')
    return json(200, openApiDocument({ baseUrl: calledAt(request, baseUrl) }))
  },
}
