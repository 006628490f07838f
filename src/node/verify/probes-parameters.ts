import { filterApplies, TYPE_RULES } from '../../contract/type-rules.js'
import { LIMIT_MAX, MAX_FILTER_INTEGER } from '../../contract/responses.js'
import { RESPONSE_TYPES, type ActivationType } from '../../contract/enums.js'
import { answerText, confirmed, differs, errorMessage, itemsOf, notCheckable } from './checks.js'
import { activationPath, activationsOf } from './discover.js'
import { errorProbe, expectErrors } from './error-cases.js'
import type { EntriesPage, Probe, ProbeContext } from './probe.js'
import { requestLine } from './probe.js'

/** An entries page read by discovery of one of `types` with at least one entry. */
function pageOf(context: ProbeContext, types: readonly ActivationType[]): EntriesPage | undefined {
  return types.map((t) => context.found.entries[t]).find((p) => p !== undefined && p.entries.length > 0)
}

const ALL_TYPES = Object.keys(TYPE_RULES) as ActivationType[]
const typesWhere = (applies: boolean) => ALL_TYPES.filter((t) => filterApplies('is_winner', t) === applies)

const NO_ACTIVATION = 'the account has no activation'
/** The documented types without winners (TYPE_RULES), named when none of them was found with entries. */
const WITHOUT_WINNERS = RESPONSE_TYPES.filter((t) => !filterApplies('is_winner', t)).join(', ')

/** The probes of parameters: which values are 400, which are ignored, and what a filter a type lacks selects. */
export const parameterProbes: Probe[] = [
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
      if (!page) return notCheckable(`no activation with entries of a type without winners (${WITHOUT_WINNERS})`)
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
]
