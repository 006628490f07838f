import { apiError, errorResponse, notFound } from '../errors.js'
import { answerFrom } from '../msw-adapter.js'
import { param } from './answers.js'
import type { AdminRoute } from './context.js'

/**
 * `GET /__emulator/view/:account/<API path>`: the API's answer to that account's first key, without
 * the journal, rate limits or fault rules (what the inspector shows).
 */
export const viewTheApi: AdminRoute = {
  method: 'get',
  path: '/view/:account/*',
  what: 'view the API',
  answer: async ({ control, baseUrl, view, prefix }, { request, params }) => {
    const name = param(params['account'])
    const account = control.accounts.find((a) => a.name === name)
    if (!account) {
      const names = control.accounts.map((a) => a.name).join(', ')
      throw apiError(404, `Unknown account ${JSON.stringify(name)}: the accounts are ${names}`)
    }
    const key = account.apiKeys[0]
    if (key === undefined) throw apiError(400, `Account ${JSON.stringify(name)} has no API key to view the API with`)
    const url = new URL(request.url)
    const rest = /^\/view\/[^/]+(\/.*)$/.exec(url.pathname.slice(prefix.length))?.[1] ?? '/'
    const asked = new Request(`${baseUrl.replace(/\/+$/, '')}${rest}${url.search}`, {
      headers: { authorization: `Api-Key ${key}` },
    })
    return (await answerFrom(view, asked)) ?? errorResponse(notFound(rest))
  },
}
