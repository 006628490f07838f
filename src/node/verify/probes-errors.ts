import { filterApplies, TYPE_RULES } from '../../contract/type-rules.js'
import { LIMIT_MAX, MAX_FILTER_INTEGER } from '../../contract/responses.js'
import type { ActivationType } from '../../contract/enums.js'
import { answerText, confirmed, differs, errorMessage, errorProblem, itemsOf, notCheckable } from './checks.js'
import { activationPath, activationsOf } from './discover.js'
import type { EntriesPage, Probe, ProbeContext, ProbeOutcome, ProbeRequestInit } from './probe.js'
import { requestLine } from './probe.js'

/** One request and the error status the emulator answers it with. */
type ErrorCase = { path: string; status: number; init?: ProbeRequestInit }

/** Sends each case in turn; the first that is not answered as the emulator does makes the probe differ. */
async function expectErrors(context: ProbeContext, cases: ErrorCase[], what: string): Promise<ProbeOutcome> {
  const messages: string[] = []
  for (const { path, status, init } of cases) {
    const answer = await context.request(path, { ...init, firstAnswer: true })
    const problem = errorProblem(answer, status)
    if (problem)
      return differs(
        `${what}: the emulator answers ${status} {"error"}, the real API ${problem}`,
        requestLine(path, init),
      )
    messages.push(`${status} ${JSON.stringify(errorMessage(answer))}`)
  }
  return confirmed(messages.join('; '))
}

/** A probe whose requests are all answered with an error status. */
function errorProbe(
  id: string,
  assumption: string,
  cases: (context: ProbeContext) => ErrorCase[] | string,
  requests: number,
): Probe {
  return {
    id,
    assumption,
    requests,
    async run(context) {
      const list = cases(context)
      return typeof list === 'string' ? notCheckable(list) : expectErrors(context, list, assumption)
    },
  }
}

/** The first activation listed, if any. */
const firstActivation = (context: ProbeContext) => activationsOf(context.found.firstPage)[0]

/** An entries page read by discovery of one of `types` with at least one entry. */
function pageOf(context: ProbeContext, types: readonly ActivationType[]): EntriesPage | undefined {
  return types.map((t) => context.found.entries[t]).find((p) => p !== undefined && p.entries.length > 0)
}

const ALL_TYPES = Object.keys(TYPE_RULES) as ActivationType[]
const typesWhere = (applies: boolean) => ALL_TYPES.filter((t) => filterApplies('is_winner', t) === applies)

const NO_ACTIVATION = 'the account has no activation'

/** The probes of parameters, paths, methods and keys: each sends a few requests and reads the status and body. */
export const errorProbes: Probe[] = [
  errorProbe(
    'bad-parameter',
    'a malformed or out-of-range parameter is 400',
    () => [
      { path: '/activations/list?limit=abc', status: 400 },
      { path: `/activations/list?limit=${LIMIT_MAX.activations + 1}`, status: 400 },
      { path: '/activations/list?limit=0', status: 400 },
      { path: '/activations/list?state=bogus', status: 400 },
    ],
    4,
  ),
  errorProbe(
    'repeated-parameter',
    'a parameter given twice is 400',
    () => [{ path: '/activations/list?limit=5&limit=5', status: 400 }],
    1,
  ),
  {
    id: 'unknown-parameter',
    assumption: 'unknown parameters, and types without [], are ignored',
    requests: 2,
    async run(context) {
      const ids = activationsOf(context.found.firstPage)
        .slice(0, 3)
        .map((a) => a.id)
      if (ids.length === 0) return notCheckable(NO_ACTIVATION)
      for (const path of ['/activations/list?limit=3&verify_unknown=1', '/activations/list?limit=3&types=verify']) {
        const answer = await context.request(path)
        const got = activationsOf({ path, answer }).map((a) => a.id)
        if (answer.status !== 200 || got.join() !== ids.join())
          return differs(
            `the emulator ignores the parameter and answers the first ${ids.length} activations; the real API answered ${answer.status === 200 ? `the ids ${got.join(', ')}` : answerText(answer)}`,
            requestLine(path),
          )
      }
      return confirmed('answered as if the parameter were not there')
    },
  },
  {
    id: 'date-range',
    assumption: 'dates are real days from 0000-01-01 to 9999-12-31',
    requests: 4,
    async run(context) {
      for (const day of ['0061-12-25', '9999-12-31']) {
        const path = `/activations/list?start_date=${day}&limit=1`
        const answer = await context.request(path)
        if (answer.status !== 200)
          return differs(`the emulator accepts ${day}; the real API answered ${answerText(answer)}`, requestLine(path))
      }
      return expectErrors(
        context,
        [
          { path: '/activations/list?start_date=0001-02-29&limit=1', status: 400 },
          { path: '/activations/list?start_date=2026-02-30&limit=1', status: 400 },
        ],
        'a day that is not on the calendar',
      )
    },
  },
  {
    id: 'bracket-bounds',
    assumption: `bracket_round and bracket_seed are 1 to ${MAX_FILTER_INTEGER}`,
    requests: 3,
    async run(context) {
      const bracket = activationsOf(context.found.byType['bracket'])[0]
      if (!bracket) return notCheckable('no bracket activation in this account')
      const path = activationPath(bracket.id, `?bracket_round=${MAX_FILTER_INTEGER}&limit=1`)
      const answer = await context.request(path)
      if (answer.status !== 200)
        return differs(
          `the emulator accepts ${MAX_FILTER_INTEGER}; the real API answered ${answerText(answer)}`,
          requestLine(path),
        )
      return expectErrors(
        context,
        [
          { path: activationPath(bracket.id, `?bracket_round=${MAX_FILTER_INTEGER + 1}&limit=1`), status: 400 },
          { path: activationPath(bracket.id, '?bracket_seed=0&limit=1'), status: 400 },
        ],
        'a round or seed out of bounds',
      )
    },
  },
  {
    id: 'flag-values',
    assumption: 'is_winner=0 is the same as leaving it out; other values than 1 and 0 are 400',
    requests: 2,
    async run(context) {
      const page = pageOf(context, typesWhere(true))
      if (!page) return notCheckable('no activation with entries of a type that has winners')
      const ids = page.entries.slice(0, 5).map((e) => e['id'])
      const path = activationPath(page.activation.id, `?is_winner=0&limit=${ids.length}`)
      const answer = await context.request(path)
      const got = (itemsOf(answer, 'entries') ?? []).map((e) => e['id'])
      if (answer.status !== 200 || got.join() !== ids.join())
        return differs(
          `the emulator answers is_winner=0 as if it were not given; the real API answered ${answer.status === 200 ? `other entries (${got.length})` : answerText(answer)}`,
          requestLine(path),
        )
      return expectErrors(
        context,
        [{ path: activationPath(page.activation.id, '?is_winner=yes&limit=1'), status: 400 }],
        'is_winner=yes',
      )
    },
  },
  {
    id: 'unsupported-filter',
    assumption: 'a filter the type does not support selects no entry (unsupportedFilter)',
    requests: 1,
    async run(context) {
      const page = pageOf(context, typesWhere(false))
      if (!page)
        return notCheckable(
          'no activation with entries of a type without winners (sweepstakes, artwall, bracket, map, form)',
        )
      const path = activationPath(page.activation.id, '?is_winner=1&limit=5')
      const answer = await context.request(path)
      const entries = itemsOf(answer, 'entries')
      const seen: 'empty' | 'ignore' | 'reject' | null =
        answer.status === 400 && errorMessage(answer) !== null
          ? 'reject'
          : entries?.length === 0
            ? 'empty'
            : entries &&
                entries.map((e) => e['id']).join() ===
                  page.entries
                    .slice(0, 5)
                    .map((e) => e['id'])
                    .join()
              ? 'ignore'
              : null
      const expected = context.expected.unsupportedFilter
      const what = { empty: 'an empty page', ignore: 'the entries as without the filter', reject: '400' }
      if (seen === expected) return confirmed(`${what[seen]} (is_winner on a ${page.activation.type})`)
      if (seen === null)
        return differs(
          `the emulator answers ${what[expected]}; the real API answered ${answerText(answer)}`,
          requestLine(path),
        )
      return differs(
        `is_winner=1 on a ${page.activation.type}: the real API answered ${what[seen]}, the emulator ${what[expected]}`,
        requestLine(path),
        { unsupportedFilter: seen },
        `endpoints.unsupportedFilter: '${seen}'`,
      )
    },
  },
  {
    id: 'participants-date-order',
    assumption: 'participants start_date after end_date is 400',
    requests: 1,
    async run(context) {
      if (context.found.participants?.answer.status === 403) return notCheckable('premium is off for this account')
      return expectErrors(
        context,
        [{ path: '/experience/participants?start_date=2026-05-02&end_date=2026-05-01', status: 400 }],
        'start_date after end_date',
      )
    },
  },
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
        const path = `/activations/list?limit=100`
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
