import type { AccountSettings } from '../context.js'
import type { RateLimiter } from '../rate-limit.js'
import { bodyOf, json, onlyFields, param } from './answers.js'
import type { AdminRoute } from './context.js'

/** Each key's requests left in its rate-limit window (`resetInSeconds` null: no window open); null without a limit. */
function windowsOf(account: AccountSettings, limiter: RateLimiter | undefined, now: number) {
  const limit = account.rateLimit
  if (!limit || !limiter) return null
  return account.apiKeys.map((key) => {
    const { remaining, resetInMs } = limiter.peek(key, limit, now)
    return { key, remaining, resetInSeconds: resetInMs === null ? null : Math.ceil(resetInMs / 1000) }
  })
}

/** `GET /__emulator/accounts`: each account's settings and what each key has left of its window. */
export const readAccounts: AdminRoute = {
  method: 'get',
  path: '/accounts',
  what: 'read the accounts',
  answer: ({ control, rateLimiter }) =>
    json(200, {
      accounts: control.accounts.map((account) => ({
        ...account,
        apiKeys: [...account.apiKeys],
        windows: windowsOf(account, rateLimiter, control.clock.now()),
      })),
    }),
}

/** `PATCH /__emulator/accounts/:name`: `premium` and `rateLimit` of one account; the account as it is then. */
export const changeAccount: AdminRoute = {
  method: 'patch',
  path: '/accounts/:name',
  what: 'change the account',
  answer: async ({ control }, { request, params }) => {
    const body = await bodyOf(request)
    onlyFields(body, ['premium', 'rateLimit'])
    const name = param(params['name'])
    control.set({ ...body, account: name })
    return json(
      200,
      control.accounts.find((a) => a.name === name),
    )
  },
}
