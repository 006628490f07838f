import * as z from 'zod'
import type { FaultDecision } from '../../handlers/index.js'

/**
 * The most bytes of an answer's body (UTF-8): half the admin API's 1 MB request body, so that a rule
 * with the largest body, escaped in JSON, still fits in one `POST /__emulator/faults`.
 */
const MAX_ANSWER_BODY_BYTES = 512 << 10

/** The most headers of an answer: far more than any real answer sends, each one a line the server writes. */
const MAX_ANSWER_HEADERS = 50

/**
 * The most characters of an answer's header names and values together: half the 16 KB of headers that
 * Node's and undici's clients take, so that the server's own (CORS, Date) always fit beside them.
 */
const MAX_ANSWER_HEADER_CHARS = 8192

/** A rule's own answer as it is given, and as `faults.list()` shows it (`headers` and `body` filled in). */
export type AnswerInput = { status: number; headers?: Record<string, string>; body?: string }

/** A rule's own answer, held: as listed, and its body's bytes as sent. */
export type HeldAnswer = { listed: Required<AnswerInput>; sent: NonNullable<FaultDecision['answer']> }

/** An HTTP token, what a header's name is made of (RFC 9110). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
/** What a header's value may hold as Node writes it: tabs, visible ASCII, spaces and Latin-1 letters. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/
/** The statuses whose answers never have a body. */
const NO_BODY = new Set([204, 205, 304])

/** The headers the server writes itself, and why a rule may not give them. */
const SERVERS_OWN: ReadonlyArray<[RegExp, string]> = [
  [
    /^(content-length|transfer-encoding|connection|keep-alive|proxy-connection|te|trailer|upgrade)$/,
    'it frames the answer on the connection',
  ],
  [/^content-encoding$/, 'the body is text sent as it is, never encoded'],
  [/^access-control-/, 'the server writes CORS headers as its cors option says'],
  [/^x-activation-emulator-/, 'the emulator uses these names inside'],
]

const UTF8 = new TextEncoder()

/** The problems of an answer's headers, each with the field it is about (under `answer`). */
function headerProblems(headers: Record<string, unknown>, report: (path: string[], message: string) => void): void {
  const names = Object.keys(headers)
  if (names.length > MAX_ANSWER_HEADERS) {
    report(['headers'], `at most ${MAX_ANSWER_HEADERS} headers, got ${names.length}`)
    return
  }
  const seen = new Map<string, string>()
  let chars = 0
  for (const name of names) {
    const value = headers[name]
    const at = ['headers', name]
    if (!TOKEN.test(name)) report(at, "a header name is letters, digits and !#$%&'*+-.^_`|~ only")
    else {
      const lower = name.toLowerCase()
      const own = SERVERS_OWN.find(([pattern]) => pattern.test(lower))
      if (own) report(at, `the server writes ${name} itself (${own[1]}): leave it out`)
      const before = seen.get(lower)
      if (before !== undefined)
        report(at, `${JSON.stringify(before)} and ${JSON.stringify(name)} name one header: give it once`)
      seen.set(lower, name)
    }
    if (typeof value !== 'string') {
      report(at, 'a header value must be a string')
      continue
    }
    if (!FIELD_VALUE.test(value)) report(at, 'a header value holds tabs, spaces and printable Latin-1 characters only')
    else if (/^[\t ]|[\t ]$/.test(value)) report(at, 'a header value must not begin or end with a space or a tab')
    chars += name.length + value.length
  }
  if (chars > MAX_ANSWER_HEADER_CHARS)
    report(['headers'], `header names and values add up to at most ${MAX_ANSWER_HEADER_CHARS} characters, got ${chars}`)
}

const STATUS_RANGE = 'must be an integer from 200 to 599 (a final answer: a 1xx is none)'

/** What `answer` takes: a status of 200 to 599, a flat object of headers, and a body of text. */
export const answerSchema = z
  .strictObject({
    status: z.number().int().min(200, STATUS_RANGE).max(599, STATUS_RANGE),
    headers: z.custom<Record<string, string>>(
      (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
      'must be an object of header names and string values',
    ),
    body: z.string(),
  })
  .partial({ headers: true, body: true })
  .superRefine((answer, ctx) => {
    // Stryker disable next-line StringLiteral: an issue's code is read nowhere, only its path and message.
    const report = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message })
    if (answer.headers) headerProblems(answer.headers, report)
    const body = answer.body ?? ''
    // A character is at least one byte of UTF-8: a body of more characters is too long before it is encoded.
    const bytes = body.length > MAX_ANSWER_BODY_BYTES ? undefined : UTF8.encode(body).length
    if (bytes === undefined || bytes > MAX_ANSWER_BODY_BYTES)
      report(
        ['body'],
        `at most ${MAX_ANSWER_BODY_BYTES} bytes (512 KB) of UTF-8, got ${bytes ?? `${body.length} characters`}`,
      )
    if (NO_BODY.has(answer.status) && body !== '') report(['body'], `a ${answer.status} has no body: leave body out`)
  })

/**
 * An answer that passed `answerSchema`, held: its headers copied into an object with no prototype
 * (a header may be named `__proto__`), its body encoded once.
 */
export function heldAnswer(answer: AnswerInput): HeldAnswer {
  const headers = Object.create(null) as Record<string, string>
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name] = value
  const body = answer.body ?? ''
  return {
    listed: { status: answer.status, headers, body },
    sent: { status: answer.status, headers: Object.entries(headers), body: UTF8.encode(body) },
  }
}

/** A copy of an answer as listed, for a caller that may change it. */
export function listedAnswer(answer: Required<AnswerInput>): Required<AnswerInput> {
  return {
    status: answer.status,
    headers: Object.assign(Object.create(null) as object, answer.headers),
    body: answer.body,
  }
}
