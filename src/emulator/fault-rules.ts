import * as z from 'zod'
import type { FaultDecision, EndpointName } from '../../handlers/index.js'
import { parseDuration } from '../time/clock.js'
import { problemLines } from '../contract/problems.js'
import { deriveSeed } from '../time/random.js'
import { EmulatorError } from '../contract/emulator-error.js'
import { answerSchema, heldAnswer, listedAnswer, type AnswerInput, type HeldAnswer } from './fault-answer.js'
import { pathProblem, PathPattern } from './fault-path.js'

const ENDPOINTS = ['list', 'activation', 'latest', 'participants', 'any'] as const
const MAX_DELAY_MS = 600_000

const delaySchema = z.union([
  z.custom<number | string>(
    (v) => typeof v === 'number' || typeof v === 'string',
    'must be milliseconds or a duration',
  ),
  z.strictObject({ min: z.number().int().min(0), max: z.number().int().min(0) }),
])

/** What `faults.add()` and `POST /__emulator/faults` take. */
export type FaultRuleInput = {
  /** The rule's id; by default `rule-1`, `rule-2`... */
  id?: string
  /** Which endpoint's requests it applies to: `list`, `activation`, `latest`, `participants`, or `any` (the default). */
  endpoint?: EndpointName | 'any'
  /**
   * Only requests to this path under the base URL, as sent (its query not matched): exact, or with `*`
   * for any one segment (`/activations/*`). With `endpoint`, both must match.
   */
  path?: string
  /** Only requests with this API key; any key by default. */
  key?: string
  /** Skip the first N matching requests. */
  after?: number
  /** Answer with this status (400 to 599), with `error` as the message of its `{"error"}` body. */
  status?: number
  error?: string
  /** Delay the answer: milliseconds, a duration such as `"5s"`, or `{ min, max }` milliseconds for a seeded draw. */
  delay?: number | string | { min: number; max: number }
  /** Standalone: destroy the socket before any byte (`connection`), or after the headers and half the body (`body`). */
  drop?: 'connection' | 'body'
  /** Answer with this status (200 to 599), these headers and this body (default empty), as they are. */
  answer?: AnswerInput
  /** Fire this many times, then the rule is spent; without it, every matching request. */
  times?: number
  /** Fire on this share (0 to 1) of matching requests, by a seeded draw. */
  probability?: number
}

/** A fault rule as it stands: what it matches, what it does, and how often it has matched and fired. */
export type FaultRule = {
  id: string
  endpoint: EndpointName | 'any'
  path: string | null
  key: string | null
  after: number
  status: number | null
  error: string | null
  delay: { min: number; max: number } | null
  drop: 'connection' | 'body' | null
  answer: Required<AnswerInput> | null
  times: number | null
  probability: number | null
  /** Matching requests seen (those skipped by `after` included). */
  matched: number
  /** Times it fired. */
  fired: number
  /** Whether it has fired `times` times and fires no more. */
  spent: boolean
}

const ruleSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'id must be 1 to 64 letters, digits, _, . or -')
      .optional(),
    endpoint: z.enum(ENDPOINTS).optional(),
    path: z.string().optional(),
    key: z.string().min(1).optional(),
    after: z.number().int().min(0).optional(),
    status: z.number().int().min(400).max(599).optional(),
    error: z.string().min(1).optional(),
    delay: delaySchema.optional(),
    drop: z.enum(['connection', 'body']).optional(),
    answer: answerSchema.optional(),
    times: z.number().int().min(1).optional(),
    probability: z.number().min(0).max(1).optional(),
  })
  .superRefine((r, ctx) => {
    const effects = (['status', 'delay', 'drop', 'answer'] as const).filter((k) => r[k] !== undefined)
    if (effects.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `a rule needs exactly one effect, status, delay, drop or answer, got ${effects.length ? effects.join(' and ') : 'none'}`,
      })
    }
    const problem = r.path === undefined ? undefined : pathProblem(r.path, r.endpoint ?? 'any')
    if (problem) ctx.addIssue({ code: 'custom', path: ['path'], message: problem })
    if (r.error !== undefined && r.status === undefined) {
      ctx.addIssue({ code: 'custom', path: ['error'], message: 'error is the message of a status: give status too' })
    }
  })

/** Checks a rule's input; throws one EmulatorError listing every problem. */
function checkRule(input: unknown): FaultRuleInput & { delayRange?: { min: number; max: number } } {
  const result = ruleSchema.safeParse(input)
  if (!result.success)
    throw new EmulatorError(
      'bad_input',
      `Invalid fault rule: ${problemLines(result.error.issues)
        .map((line) => line.replace(/^\(root\): /, ''))
        .join('; ')}`,
    )
  const rule = result.data
  let delayRange: { min: number; max: number } | undefined
  if (rule.delay !== undefined) {
    if (typeof rule.delay === 'object') {
      if (rule.delay.min > rule.delay.max)
        throw new EmulatorError('bad_input', 'Invalid fault rule: delay: min must not be above max')
      delayRange = rule.delay
    } else {
      const ms = parseDuration(rule.delay, 'Invalid fault rule: delay')
      delayRange = { min: ms, max: ms }
    }
    if (delayRange.max > MAX_DELAY_MS) {
      throw new EmulatorError('bad_input', `Invalid fault rule: delay must be at most ${MAX_DELAY_MS} ms (10 minutes)`)
    }
  }
  return { ...rule, ...(delayRange ? { delayRange } : {}) }
}

/** A rule as it is held: as listed (its counts changing), with its path's matcher and its own answer. */
type Held = { rule: FaultRule; path: PathPattern | null; answer: HeldAnswer | null }

/** The most rules an emulator (or a sandbox) holds at once: a suite's are tens; each is checked on every request. */
const MAX_RULES = 1_000

/**
 * The most bytes the rules' own answers may hold together (bodies and headers): four answers of the
 * largest body, so that a client adding rules cannot grow an emulator's memory without a bound.
 */
const MAX_ANSWER_BYTES = 2 << 20

/** What an answer holds: its body's bytes and its headers' characters. */
const answerBytes = (answer: HeldAnswer | null): number =>
  answer === null
    ? 0
    : answer.sent.body.length + answer.sent.headers.reduce((sum, [name, value]) => sum + name.length + value.length, 0)

/**
 * The fault rules of an emulator, checked in the order they were added. Delay rules hold a request as
 * it arrives (every matching one adds its delay), and the request is then answered as things stand
 * after the wait; status, drop and answer rules are checked for each API request that passed the key
 * and rate-limit checks, and the first that fires ends it. Probabilities and delay
 * ranges are seeded draws, one sequence per rule, so that the same seed replays the same faults.
 */
export class FaultRules {
  readonly #seed: number
  #rules: Held[] = []
  #made = 0

  constructor(seed: number) {
    this.#seed = seed
  }

  /** Adds a rule after the others; throws an EmulatorError naming what is wrong with it, and adds nothing. */
  add(input: FaultRuleInput): FaultRule {
    const rule = checkRule(input)
    if (this.#rules.length >= MAX_RULES) {
      throw new EmulatorError(
        'bad_input',
        `Invalid fault rule: an emulator holds at most ${MAX_RULES} rules: remove some first`,
      )
    }
    const answer = rule.answer ? heldAnswer(rule.answer) : null
    const held = this.#rules.reduce((sum, r) => sum + answerBytes(r.answer), 0)
    if (held + answerBytes(answer) > MAX_ANSWER_BYTES) {
      throw new EmulatorError(
        'bad_input',
        `Invalid fault rule: the rules' answers may hold at most ${MAX_ANSWER_BYTES} bytes (2 MB) together; they hold ${held}, and this one ${answerBytes(answer)}: remove some first`,
      )
    }
    // The id last: a refused rule takes none.
    const id = rule.id ?? this.#nextId()
    if (this.#rules.some((r) => r.rule.id === id))
      throw new EmulatorError('bad_input', `Invalid fault rule: id ${JSON.stringify(id)} is already taken`)
    const added: FaultRule = {
      id,
      endpoint: rule.endpoint ?? 'any',
      path: rule.path ?? null,
      key: rule.key ?? null,
      after: rule.after ?? 0,
      status: rule.status ?? null,
      error: rule.status === undefined ? null : (rule.error ?? `A fault injected by the emulator (rule ${id})`),
      delay: rule.delayRange ?? null,
      drop: rule.drop ?? null,
      answer: answer?.listed ?? null,
      times: rule.times ?? null,
      probability: rule.probability ?? null,
      matched: 0,
      fired: 0,
      spent: false,
    }
    this.#rules.push({ rule: added, path: rule.path === undefined ? null : new PathPattern(rule.path), answer })
    return copied(added)
  }

  /** Every rule, in the order they are checked, with its counts. */
  list(): FaultRule[] {
    return this.#rules.map((r) => copied(r.rule))
  }

  /** Removes a rule; false when there is none with that id. */
  remove(id: string): boolean {
    const before = this.#rules.length
    this.#rules = this.#rules.filter((r) => r.rule.id !== id)
    return this.#rules.length < before
  }

  /** Removes every rule. */
  clear(): void {
    this.#rules = []
  }

  /** No rules, and ids from `rule-1` again. */
  reset(): void {
    this.#rules = []
    this.#made = 0
  }

  /**
   * The delay rules' wait for a request to `endpoint` at `path` (under the base URL) with `key` (as
   * sent, checked or not), decided as it arrives: every matching delay rule that fires adds its delay.
   * Null when none fires.
   */
  delayFor(endpoint: EndpointName, key: string | null, path: string): { id: string; delayMs: number } | null {
    let delayMs = 0
    let id: string | null = null
    for (const held of this.#rules) {
      const rule = held.rule
      if (!rule.delay || !this.#fires(held, endpoint, key, path)) continue
      const { min, max } = rule.delay
      delayMs += min + Math.floor(this.#draw(rule.id, 'delay', rule.fired) * (max - min + 1))
      id ??= rule.id
    }
    return id === null ? null : { id, delayMs }
  }

  /**
   * The status, drop or answer rule that fires for a request to `endpoint` at `path` with `key` that
   * passed the key and rate-limit checks: the first in order; the rules after it do not see the
   * request. Null when none fires. Synchronous, so concurrent requests are counted one by one.
   */
  decide(endpoint: EndpointName, key: string, path: string): FaultDecision | null {
    for (const held of this.#rules) {
      const rule = held.rule
      if (rule.delay || !this.#fires(held, endpoint, key, path)) continue
      return {
        id: rule.id,
        ...(rule.status !== null ? { status: rule.status, error: rule.error ?? '' } : {}),
        ...(rule.drop !== null ? { drop: rule.drop } : {}),
        ...(held.answer ? { answer: held.answer.sent } : {}),
      }
    }
    return null
  }

  /** Whether a rule fires for this request, counting it: it matches, is past `after`, wins its draw and is not spent. */
  #fires(held: Held, endpoint: EndpointName, key: string | null, path: string): boolean {
    const rule = held.rule
    if (rule.spent) return false
    if (rule.endpoint !== 'any' && rule.endpoint !== endpoint) return false
    if (rule.key !== null && rule.key !== key) return false
    if (held.path !== null && !held.path.matches(path)) return false
    rule.matched++
    if (rule.matched <= rule.after) return false
    if (rule.probability !== null && this.#draw(rule.id, 'chance', rule.matched) >= rule.probability) return false
    rule.fired++
    if (rule.times !== null && rule.fired >= rule.times) rule.spent = true
    return true
  }

  #nextId(): string {
    let id: string
    do id = `rule-${++this.#made}`
    while (this.#rules.some((r) => r.rule.id === id))
    return id
  }

  /** A seeded draw in [0, 1) of a rule's sequence. */
  #draw(id: string, what: string, n: number): number {
    return deriveSeed(this.#seed, 'fault', id, what, n) / 2 ** 32
  }
}

/** A copy of a rule as listed, for a caller that may change it. */
function copied(rule: FaultRule): FaultRule {
  return {
    ...rule,
    ...(rule.delay ? { delay: { ...rule.delay } } : {}),
    ...(rule.answer ? { answer: listedAnswer(rule.answer) } : {}),
  }
}

/** The rules the options start with: `latency` as a delay rule, `errorRate` as a 500 rule with that probability. */
export function optionRules(latency: { min: number; max: number } | null, errorRate: number): FaultRuleInput[] {
  const rules: FaultRuleInput[] = []
  if (latency && latency.max > 0) rules.push({ id: 'latency', delay: latency })
  if (errorRate > 0) {
    rules.push({
      id: 'errorRate',
      status: 500,
      error: 'Internal server error (a fault injected by the emulator: errorRate)',
      probability: errorRate,
    })
  }
  return rules
}
