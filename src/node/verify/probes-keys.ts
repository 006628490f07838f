import { answerText, confirmed, differs, errorMessage, errorProblem, notCheckable } from './checks.js'
import { errorProbe } from './error-cases.js'
import type { Probe, ProbeRequestInit } from './probe.js'
import { requestLine } from './probe.js'

/** The probes of keys and access: a missing or invalid key, the scheme's case, and premium's 403. */
export const keyProbes: Probe[] = [
  errorProbe(
    'missing-key',
    'no Authorization header is 401',
    () => [{ path: '/activations/list?limit=1', status: 401, init: { authorization: null } }],
    1,
  ),
  errorProbe(
    'invalid-key',
    'an unknown key, or a header that is not Api-Key <key>, is 401',
    () => [
      { path: '/activations/list?limit=1', status: 401, init: { authorization: 'Api-Key verify-invalid-key' } },
      { path: '/activations/list?limit=1', status: 401, init: { authorization: 'Bearer verify-invalid-key' } },
    ],
    2,
  ),
  {
    id: 'auth-scheme-case',
    assumption: 'the scheme Api-Key is matched case-insensitively',
    requests: 1,
    async run(context) {
      const init: ProbeRequestInit = { scheme: 'api-key' }
      const path = '/activations/list?limit=1'
      const answer = await context.request(path, init)
      if (answer.status !== 200)
        return differs(
          `the emulator accepts the key; the real API answered ${answerText(answer)}`,
          requestLine(path, init),
        )
      return confirmed('200 with the scheme written api-key')
    },
  },
  {
    id: 'premium-off',
    assumption: 'participants without the premium feature is 403',
    requests: 0,
    async run(context) {
      const seen = context.found.participants
      if (!seen) return notCheckable('the participants list was not read (--max-requests)')
      const premium = context.expected.premium
      if (seen.answer.status === 200)
        return premium
          ? notCheckable('premium is on for this account')
          : differs(
              "the participants list answered 200: premium is on for this account, and off for the emulator's account",
              requestLine(seen.path),
              { premium: true },
              'accounts[0].premium: true',
            )
      const problem = errorProblem(seen.answer, 403)
      if (problem) return differs(`the emulator answers 403 {"error"}; the real API ${problem}`, requestLine(seen.path))
      if (premium)
        return differs(
          `the participants list answered 403 ${JSON.stringify(errorMessage(seen.answer))}: premium is off for this account, and on for the emulator's account`,
          requestLine(seen.path),
          { premium: false },
          'accounts[0].premium: false',
        )
      return confirmed(`403 ${JSON.stringify(errorMessage(seen.answer))}`)
    },
  },
]
