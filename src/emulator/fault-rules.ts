import * as z from 'zod'
import type { FaultDecision, EndpointName } from '../../handlers/index.js'
import { parseDuration } from '../time/clock.js'
import { problemLines } from '../contract/problems.js'
import { deriveSeed } from '../time/random.js'
import { EmulatorError } from '../contract/emulator-error.js'

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
  /** Fire this many times, then the rule is spent; without it, every matching request. */
  times?: number
  /** Fire on this share (0 to 1) of matching requests, by a seeded draw. */
  probability?: number
}

/** A fault rule as it stands: what it matches, what it does, and how often it has matched and fired. */
export type FaultRule = {
  id: string
  endpoint: EndpointName | 'any'
  key: string | null
  after: number
  status: number | null
  error: string | null
  delay: { min: number; max: number } | null
  drop: 'connection' | 'body' | null
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
    key: z.string().min(1).optional(),
    after: z.number().int().min(0).optional(),
    status: z.number().int().min(400).max(599).optional(),
    error: z.string().min(1).optional(),
    delay: delaySchema.optional(),
    drop: z.enum(['connection', 'body']).optional(),
    times: z.number().int().min(1).optional(),
    probability: z.number().min(0).max(1).optional(),
  })
  .superRefine((r, ctx) => {
    const effects = (['status', 'delay', 'drop'] as const).filter((k) => r[k] !== undefined)
    if (effects.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `a rule needs exactly one effect, status, delay or drop, got ${effects.length ? effects.join(' and ') : 'none'}`,
      })
    }
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

/**
 * The fault rules of an emulator, checked in the order they were added. Delay rules hold a request as
 * it arrives (every matching one adds its delay), and the request is then answered as things stand
 * after the wait; status and drop rules are checked for each API request that passed the key and
 * rate-limit checks, and the first that fires ends it. Probabilities and delay
 * ranges are seeded draws, one sequence per rule, so that the same seed replays the same faults.
 */
export class FaultRules {
  readonly #seed: number
  #rules: FaultRule[] = []
  #made = 0

  constructor(seed: number) {
    this.#seed = seed
  }

  /** Adds a rule after the others; throws an EmulatorError naming what is wrong with it, and adds nothing. */
  add(input: FaultRuleInput): FaultRule {
    const rule = checkRule(input)
    const id = rule.id ?? this.#nextId()
    if (this.#rules.some((r) => r.id === id))
      throw new EmulatorError('bad_input', `Invalid fault rule: id ${JSON.stringify(id)} is already taken`)
    const added: FaultRule = {
      id,
      endpoint: rule.endpoint ?? 'any',
      key: rule.key ?? null,
      after: rule.after ?? 0,
      status: rule.status ?? null,
      error: rule.status === undefined ? null : (rule.error ?? `A fault injected by the emulator (rule ${id})`),
      delay: rule.delayRange ?? null,
      drop: rule.drop ?? null,
      times: rule.times ?? null,
      probability: rule.probability ?? null,
      matched: 0,
      fired: 0,
      spent: false,
    }
    this.#rules.push(added)
    return { ...added }
  }

  /** Every rule, in the order they are checked, with its counts. */
  list(): FaultRule[] {
    return this.#rules.map((r) => ({ ...r, ...(r.delay ? { delay: { ...r.delay } } : {}) }))
  }

  /** Removes a rule; false when there is none with that id. */
  remove(id: string): boolean {
    const before = this.#rules.length
    this.#rules = this.#rules.filter((r) => r.id !== id)
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
   * The delay rules' wait for a request to `endpoint` with `key` (as sent, checked or not), decided
   * as it arrives: every matching delay rule that fires adds its delay. Null when none fires.
   */
  delayFor(endpoint: EndpointName, key: string | null): { id: string; delayMs: number } | null {
    let delayMs = 0
    let id: string | null = null
    for (const rule of this.#rules) {
      if (!rule.delay || !this.#fires(rule, endpoint, key)) continue
      const { min, max } = rule.delay
      delayMs += min + Math.floor(this.#draw(rule.id, 'delay', rule.fired) * (max - min + 1))
      id ??= rule.id
    }
    return id === null ? null : { id, delayMs }
  }

  /**
   * The status or drop rule that fires for a request to `endpoint` with `key` that passed the key and
   * rate-limit checks: the first in order; the rules after it do not see the request. Null when none
   * fires. Synchronous, so concurrent requests are counted one by one.
   */
  decide(endpoint: EndpointName, key: string): FaultDecision | null {
    for (const rule of this.#rules) {
      if (rule.delay || !this.#fires(rule, endpoint, key)) continue
      return {
        id: rule.id,
        ...(rule.status !== null ? { status: rule.status, error: rule.error ?? '' } : {}),
        ...(rule.drop !== null ? { drop: rule.drop } : {}),
      }
    }
    return null
  }

  /** Whether a rule fires for this request, counting it: it matches, is past `after`, wins its draw and is not spent. */
  #fires(rule: FaultRule, endpoint: EndpointName, key: string | null): boolean {
    if (rule.spent) return false
    if (rule.endpoint !== 'any' && rule.endpoint !== endpoint) return false
    if (rule.key !== null && rule.key !== key) return false
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
    while (this.#rules.some((r) => r.id === id))
    return id
  }

  /** A seeded draw in [0, 1) of a rule's sequence. */
  #draw(id: string, what: string, n: number): number {
    return deriveSeed(this.#seed, 'fault', id, what, n) / 2 ** 32
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
