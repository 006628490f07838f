import { LIMIT_MAX } from '../../contract/responses.js'
import { confirmed, differs, errorMessage, errorProblem } from './checks.js'
import { activationPath, activationsOf } from './discover.js'
import { errorProbe, expectErrors, type ErrorCase } from './error-cases.js'
import type { Probe, ProbeContext, ProbeRequestInit } from './probe.js'
import { requestLine } from './probe.js'

/** The first activation listed, if any. */
const firstActivation = (context: ProbeContext) => activationsOf(context.found.firstPage)[0]

/** The probes of paths and methods: unknown ids and paths, their case and encoding, OPTIONS and HEAD. */
export const pathProbes: Probe[] = [
  errorProbe(
    'case-swapped-id',
    'ids are case-sensitive: a case-swapped id is 404',
    (context) => {
      const known = new Set(activationsOf(context.found.firstPage).map((a) => a.id))
      const swap = (id: string) =>
        id.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
      const id = [...known].find((id) => !known.has(swap(id)))
      return id === undefined
        ? 'no activation id with a letter in it'
        : [{ path: activationPath(swap(id)), status: 404 }]
    },
    1,
  ),
  errorProbe(
    'path-case',
    'paths match case-sensitively: /ACTIVATIONS/LIST is 404',
    () => [{ path: '/ACTIVATIONS/LIST', status: 404, init: { uncounted: true } }],
    1,
  ),
  errorProbe(
    'malformed-path',
    'a path whose percent-encoding is broken is 400',
    () => [{ path: '/activations/%zz', status: 400, init: { uncounted: true } }],
    1,
  ),
  {
    id: 'unknown-id',
    assumption: "an unknown activation id, or another account's, is 404",
    requests: 3,
    async run(context) {
      const cases: ErrorCase[] = [{ path: activationPath('verify-no-such-activation'), status: 404 }]
      const own = firstActivation(context)
      if (context.keys > 1 && own) {
        // Another account's activation: only when the second key's account does not list it.
        const path = `/activations/list?limit=${LIMIT_MAX.activations}`
        const theirs = await context.request(path, { key: 1 })
        if (!activationsOf({ path, answer: theirs }).some((a) => a.id === own.id))
          cases.push({ path: activationPath(own.id), status: 404, init: { key: 1 } })
      }
      return expectErrors(context, cases, 'an unknown activation')
    },
  },
  errorProbe(
    'unknown-path',
    'an unknown path is 404',
    () => [{ path: '/verify-no-such-endpoint', status: 404, init: { uncounted: true } }],
    1,
  ),
  {
    id: 'method-not-allowed',
    assumption: 'a method other than GET and HEAD is 405 with Allow: GET, HEAD',
    requests: 1,
    async run(context) {
      // OPTIONS: a safe method by HTTP's rules, so that nothing on the account can change.
      const init: ProbeRequestInit = { method: 'OPTIONS', uncounted: true, firstAnswer: true }
      const path = '/activations/list'
      const answer = await context.request(path, init)
      const problem = errorProblem(answer, 405)
      if (problem)
        return differs(`the emulator answers 405 {"error"}; the real API ${problem}`, requestLine(path, init))
      const allow = answer.headers.get('allow')
      if (!allow || !/\bGET\b/.test(allow) || !/\bHEAD\b/.test(allow))
        return differs(
          `answered 405 with Allow: ${allow ?? '(none)'}; the emulator sends Allow: GET, HEAD`,
          requestLine(path, init),
        )
      return confirmed(`405 ${JSON.stringify(errorMessage(answer))}, Allow: ${allow}`)
    },
  },
  {
    id: 'head',
    assumption: 'HEAD is answered as GET, without a body',
    requests: 1,
    async run(context) {
      const init: ProbeRequestInit = { method: 'HEAD', firstAnswer: true }
      const path = '/activations/list?limit=1'
      const answer = await context.request(path, init)
      const type = answer.headers.get('content-type') ?? ''
      if (answer.status !== 200 || answer.text !== '' || !/^application\/json\b/.test(type))
        return differs(
          `the emulator answers 200, application/json, no body; the real API answered ${answer.status}, ${type || 'no content-type'}, ${answer.text === '' ? 'no body' : 'a body'}`,
          requestLine(path, init),
        )
      return confirmed('200, application/json, no body')
    },
  },
]
