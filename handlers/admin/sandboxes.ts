import { errorResponse, notFound } from '../errors.js'
import { answerFrom } from '../msw-adapter.js'
import { StreamedResponse } from '../streamed-response.js'
import { bodyOf, json, param } from './answers.js'
import { calledAt } from './called-at.js'
import type { AdminRoute } from './context.js'

/** What a sandbox's info says of where it is. */
type Located = { baseUrl: string; adminUrl: string }

/** A sandbox's info with its URLs at the origin the client called (see `calledAt`). */
function asCalled<T>(request: Request, info: T): T {
  const located = info as T & Located
  return { ...located, baseUrl: calledAt(request, located.baseUrl), adminUrl: calledAt(request, located.adminUrl) }
}

/**
 * `POST /__emulator/sandboxes`: opens a sandbox (the body, optional: `now`, `freeze`, `accounts`,
 * `faults`, `ttl`, `label`, `data`); 201 with its id, keys, base URL, admin URL and expiry.
 */
export const openSandbox: AdminRoute = {
  method: 'post',
  path: '/sandboxes',
  what: 'open a sandbox',
  answer: async ({ control }, { request }) => {
    // The body was parsed for this request alone: its data need not be copied.
    const sandbox = await control.sandboxOfBody((await bodyOf(request)) as never)
    return json(201, asCalled(request, control.sandboxes.info(sandbox.id)))
  },
}

/** `GET /__emulator/sandboxes`: the open sandboxes, oldest first, with how many may be open. */
export const listSandboxes: AdminRoute = {
  method: 'get',
  path: '/sandboxes',
  what: 'list the sandboxes',
  answer: ({ control }, { request }) =>
    json(200, {
      sandboxes: control.sandboxes.list().map((info) => asCalled(request, info)),
      count: control.sandboxes.size,
      max: control.sandboxes.max,
    }),
}

/** `GET /__emulator/sandboxes/:id`: one open sandbox; 404 saying whether it ended, expired or never was. */
export const readSandbox: AdminRoute = {
  method: 'get',
  path: '/sandboxes/:id',
  what: 'read a sandbox',
  answer: ({ control }, { request, params }) =>
    json(200, asCalled(request, control.sandboxes.info(param(params['id'])))),
}

/** `DELETE /__emulator/sandboxes/:id`: ends a sandbox and frees it; what it was, at its end. */
export const endSandbox: AdminRoute = {
  method: 'delete',
  path: '/sandboxes/:id',
  what: 'end a sandbox',
  answer: ({ control }, { request, params }) => {
    const id = param(params['id'])
    const info = control.sandboxes.info(id)
    control.sandboxes.end(id)
    return json(200, asCalled(request, info))
  },
}

/**
 * `/__emulator/sandboxes/:id/<control endpoint>`: any control endpoint, for that sandbox alone
 * (`/clock`, `/faults`, `/requests`, `/reset`, `/state`, `/activations`, `/dump`...), with the same
 * bodies and answers.
 */
export const sandboxAdmin: AdminRoute = {
  method: 'all',
  path: '/sandboxes/:id/*',
  what: "answer a sandbox's control endpoint",
  readsWorld: false,
  answer: async ({ control }, { request, params }) => {
    const id = param(params['id'])
    // Answering until its answer is sent (a dump's, until its last byte): it does not expire meanwhile.
    const { sandbox, done } = control.sandboxes.answering(id)
    let answer: Response
    try {
      answer =
        (await answerFrom(sandbox.adminHandlers, request)) ??
        errorResponse(notFound(new URL(request.url).pathname, 'admin endpoint'))
    } catch (error) {
      done()
      throw error
    }
    if (answer instanceof StreamedResponse) void answer.ended.then(done)
    else done()
    try {
      // Ended while it was answered (ended on request): the ended sandbox's 404, not what it did.
      control.sandboxes.info(id)
    } catch (error) {
      await answer.body?.cancel()
      throw error
    }
    return answer
  },
}
