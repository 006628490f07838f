import { confirmed, differs, errorMessage, errorProblem, notCheckable } from './checks.js'
import type { Probe, ProbeContext, ProbeOutcome, ProbeRequestInit } from './probe.js'
import { requestLine } from './probe.js'

// The probes that expect error answers: each case a request and the status the emulator answers it
// with, sent in turn, the first answered otherwise making the probe differ.

/** One request and the error status the emulator answers it with. */
export type ErrorCase = { path: string; status: number; init?: ProbeRequestInit }

/** Sends each case in turn; the first that is not answered as the emulator does makes the probe differ. */
export async function expectErrors(context: ProbeContext, cases: ErrorCase[], what: string): Promise<ProbeOutcome> {
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

/** A probe whose requests are all answered with an error status (or not checkable, when `cases` says why). */
export function errorProbe(
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
