import { FILTER_TYPES, UNLISTED_TYPES } from '../../contract/enums.js'
import { LIMIT_MAX } from '../../contract/responses.js'
import { answerText, confirmed, differs, errorProblem, nextOf, notCheckable } from './checks.js'
import { activationsOf } from './discover.js'
import type { ListedActivation, Probe, ProbeContext } from './probe.js'
import { requestLine } from './probe.js'

/** Activations known to have started: those the running and ended lists answered. */
function startedActivations(context: ProbeContext): ListedActivation[] {
  return [...activationsOf(context.found.byState.running), ...activationsOf(context.found.byState.ended)]
}

/** The probes of what the lists hold: `next`, the state filter, `latest` and the types filter. */
export const listProbes: Probe[] = [
  {
    id: 'next-holds-id',
    assumption: "next is the id of the next page's first item",
    requests: 2,
    async run(context) {
      const all = activationsOf(context.found.firstPage)
      if (all.length < 3) return notCheckable('fewer than three activations to page through')
      const first = '/activations/list?limit=2'
      const page = await context.request(first)
      const next = nextOf(page)
      if (typeof next !== 'string')
        return differs(`a page of 2 of ${all.length} answered next ${JSON.stringify(next)}`, requestLine(first))
      const second = `/activations/list?limit=2&next=${encodeURIComponent(next)}`
      const answer = await context.request(second)
      const ids = activationsOf({ path: second, answer }).map((a) => a.id)
      if (answer.status !== 200 || ids[0] !== all[2]!.id)
        return differs(
          `the page after the first two should start with the third activation (${all[2]!.id}); the real API answered ${answer.status === 200 ? ids.join(', ') : answerText(answer)}`,
          requestLine(second),
        )
      if (next !== all[2]!.id)
        return differs(
          `next is ${JSON.stringify(next)}, not the id of the next page's first activation (${all[2]!.id}); the emulator's next is that id`,
          requestLine(first),
        )
      return confirmed(`next ${JSON.stringify(next)} is the next page's first id`)
    },
  },
  {
    id: 'next-foreign',
    assumption: 'a next that names no item of that list is 400',
    requests: 3,
    async run(context) {
      const cases = ['/activations/list?next=verify-no-such-id']
      const all = activationsOf(context.found.firstPage)
      let second: string | null = null
      if (context.keys > 1 && all[1]) second = `/activations/list?limit=1&next=${encodeURIComponent(all[1].id)}`
      for (const path of cases) {
        const answer = await context.request(path)
        const problem = errorProblem(answer, 400)
        if (problem) return differs(`the emulator answers 400 {"error"}; the real API ${problem}`, requestLine(path))
      }
      if (second) {
        // Another account's next: unless the second key's account lists that activation too.
        const theirs = await context.request(`/activations/list?limit=${LIMIT_MAX.activations}`, { key: 1 })
        if (!activationsOf({ path: '', answer: theirs }).some((a) => a.id === all[1]!.id)) {
          const answer = await context.request(second, { key: 1 })
          const problem = errorProblem(answer, 400)
          if (problem)
            return differs(
              `another account's next: the emulator answers 400 {"error"}; the real API ${problem}`,
              requestLine(second, { key: 1 }),
            )
        }
      }
      return confirmed('400')
    },
  },
  {
    id: 'state-from-times',
    assumption: 'the state is computed from startTime, endTime and the clock',
    requests: 0,
    async run(context) {
      const { not_started: waiting, running, ended } = context.found.byState
      if (!waiting || !running || !ended) return notCheckable('the state lists were not read (--max-requests)')
      for (const seen of [waiting, running, ended])
        if (seen.answer.status !== 200)
          return differs(`the state filter answered ${answerText(seen.answer)}`, requestLine(seen.path))
      // Some instant t must have: running start <= t < end; ended end <= t; not_started t < start.
      const iso = (a: ListedActivation, f: 'startTime' | 'endTime') => a[f].iso
      const lower = [
        ...activationsOf(running).map((a) => iso(a, 'startTime')),
        ...activationsOf(ended).map((a) => iso(a, 'endTime')),
      ]
      const upper = [
        ...activationsOf(running).map((a) => iso(a, 'endTime')),
        ...activationsOf(waiting).map((a) => iso(a, 'startTime')),
      ]
      if (lower.length === 0 || upper.length === 0)
        return notCheckable('too few activations in the three states to tell')
      const from = lower.reduce((a, b) => (a > b ? a : b))
      const to = upper.reduce((a, b) => (a < b ? a : b))
      if (from >= to)
        return differs(
          `no single instant puts every listed activation in its state by its times (the running and ended ones need ${from} or later, the running and not_started ones before ${to})`,
          requestLine(running.path),
        )
      return confirmed(
        `every listed activation is in the state its times give, at an instant from ${from} to before ${to}`,
      )
    },
  },
  {
    id: 'latest',
    assumption: 'latest: the latest startTime not after now; ties: the smaller id',
    requests: 1,
    async run(context) {
      const started = startedActivations(context)
      const cut = [context.found.byState.running, context.found.byState.ended].some(
        (s) => s && nextOf(s.answer) !== null,
      )
      if (started.length === 0) return notCheckable('no started activation in this account')
      if (cut && context.expected.order.activations !== 'newest-first')
        return notCheckable('more started activations than one page holds, listed oldest first')
      const best = started.reduce((a, b) =>
        b.startTime.iso > a.startTime.iso || (b.startTime.iso === a.startTime.iso && b.id < a.id) ? b : a,
      )
      const path = '/activations/latest?limit=1'
      const answer = await context.request(path)
      const got = (answer.body as { activation?: { id?: unknown } } | undefined)?.activation?.id
      if (answer.status !== 200 || got !== best.id)
        return differs(
          `the emulator answers the activation that started last (${best.id}, ${best.startTime.iso}); the real API answered ${answer.status === 200 ? String(got) : answerText(answer)}`,
          requestLine(path),
        )
      return confirmed(`${best.id}, started ${best.startTime.iso}`)
    },
  },
  {
    id: 'latest-none',
    assumption: 'latest with no started activation (of the types asked) is 404',
    requests: 1,
    async run(context) {
      const started = new Set(startedActivations(context).map((a) => a.id))
      const type = FILTER_TYPES.find((t) => {
        const seen = context.found.byType[t]
        return (
          seen &&
          seen.answer.status === 200 &&
          nextOf(seen.answer) === null &&
          activationsOf(seen).every((a) => !started.has(a.id))
        )
      })
      if (!type) return notCheckable('every type has a started activation in this account')
      const path = `/activations/latest?types[]=${type}&limit=1`
      const answer = await context.request(path)
      const problem = errorProblem(answer, 404)
      if (problem)
        return differs(
          `no ${type} has started: the emulator answers 404 {"error"}; the real API ${problem}`,
          requestLine(path),
        )
      return confirmed(`404 ${JSON.stringify((answer.body as { error: string }).error)}`)
    },
  },
  {
    id: 'undocumented-types',
    assumption: 'survey, quiz, ultimate_team and game: accepted by types[], and no such activation is served',
    requests: 0,
    async run(context) {
      const found: string[] = []
      for (const type of UNLISTED_TYPES) {
        const seen = context.found.byType[type]
        if (!seen) return notCheckable('the types were not all read (--max-requests)')
        if (seen.answer.status !== 200)
          return differs(
            `types[]=${type}: the emulator accepts it; the real API answered ${answerText(seen.answer)}`,
            requestLine(seen.path),
          )
        const listed = activationsOf(seen)
        const other = listed.find((a) => a.type !== type)
        if (other)
          return differs(
            `types[]=${type} answered an activation whose type is ${JSON.stringify(other.type)}; the emulator's type is the filter's value`,
            requestLine(seen.path),
          )
        if (listed.length) found.push(`${listed.length}${nextOf(seen.answer) ? '+' : ''} ${type}`)
      }
      if (found.length === 0) return confirmed('accepted, and no such activation in this account')
      if (context.expected.undocumentedTypes) return confirmed(`served: ${found.join(', ')}`)
      const first = UNLISTED_TYPES.find((t) => activationsOf(context.found.byType[t]).length > 0)!
      return differs(
        `the real API serves ${found.join(', ')} activations; the emulator's worlds hold only the ten documented types`,
        requestLine(context.found.byType[first]!.path),
        { undocumentedTypes: true },
        'undocumentedTypes: true (and activations of those types, as in the built-in undocumented-types)',
      )
    },
  },
]
