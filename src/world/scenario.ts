import * as z from 'zod'
import {
  activationTypeSchema,
  hasSubtype,
  stateSchema,
  SUBTYPES_BY_TYPE,
  subtypeSchema,
  UNLISTED_TYPES,
} from '../contract/enums.js'
import { PARSED_ONCE, problemLines } from '../contract/problems.js'
import { rateLimitSchema } from '../contract/rate-limit.js'
import { LIMIT_MAX } from '../contract/responses.js'
import { ID_LIMITS } from './ids.js'
import { EmulatorError } from '../contract/emulator-error.js'

const count = z.number().int().min(0)

/**
 * What one world may hold in all, past the room its ids have: a world is planned at start, about a
 * third of a millisecond an activation, and its counts and times grow with its entries. Twice the
 * largest world measured (bench/scenarios/ten-million.json: 1,000 activations, 10,000,000 entries).
 */
export const WORLD_LIMITS = {
  /** Activations over every account and group (`count` summed). */
  activations: 10_000,
  /** Generated entries over every activation (`count` times `entries`, summed). */
  entries: 20_000_000,
} as const

/** How a live world grows while the clock moves (arrivals are on with the `live` option or `--live`). */
const liveSchema = z.strictObject({
  /** Entries each running activation receives an hour, on average (a Poisson draw per hour); 0 for none. */
  entriesPerHour: z.number().min(0).max(100_000),
})

/**
 * A group of alike activations. Its position in the world is its `key` (by default
 * `type/subtype/state`), so adding activations to one group leaves the others untouched.
 */
export const activationGroupSchema = z
  .strictObject({
    key: z.string().min(1).optional(),
    type: activationTypeSchema,
    subtype: subtypeSchema.optional(),
    state: stateSchema,
    count: z.number().int().min(1).max(ID_LIMITS.activationsPerGroup).default(1),
    /** Entries of each activation of the group (activations that have not started have none). */
    entries: count.default(0),
    /** Winners of each activation; by default a share that suits the type. */
    winners: count.optional(),
    /** Entries that completed (trivia, pick'em, scavenger); by default a share that suits the type. */
    completed: count.optional(),
    /** Giveaway entries that are replays by an earlier entrant. */
    replays: count.optional(),
    /** Giveaway winners whose prize was voided. */
    voided: count.optional(),
    /** Questions of a trivia, pick'em or scavenger hunt. */
    questions: z.number().int().min(1).max(50).optional(),
    /** Rounds of a bracket (2 to 6: 4 to 64 contestants). */
    rounds: z.number().int().min(2).max(6).optional(),
    /** How many extra form questions (of six) every entry answers; by default 0 to 3. */
    extras: z.number().int().min(0).max(6).optional(),
    /** Whether the activations have a sponsor; by default some do. */
    sponsor: z.boolean().optional(),
    /** The activation's id, instead of a generated one (a group of one). */
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'id must be 1 to 64 letters, digits, _ or -')
      .optional(),
    /** The title, instead of a generated one. */
    title: z.string().min(1).max(2000).optional(),
    /** The start: `now` (the instant the world is built around) or an ISO time; the state must agree. */
    startAt: z.union([z.literal('now'), z.iso.datetime({ offset: true })]).optional(),
    /** The end: `now` or an ISO time; the state must agree. */
    endAt: z.union([z.literal('now'), z.iso.datetime({ offset: true })]).optional(),
    /** Put the first entry exactly at the start and the last exactly at the earlier of the end and now. */
    boundaryEntries: z.boolean().optional(),
    /** How fast the group's activations receive entries while they run, in a live world; by default the scenario's `live`. */
    live: liveSchema.optional(),
  })
  .superRefine((g, ctx) => {
    if (g.subtype !== undefined) {
      const allowed: readonly string[] = hasSubtype(g.type) ? SUBTYPES_BY_TYPE[g.type] : []
      if (!allowed.includes(g.subtype)) {
        ctx.addIssue({
          code: 'custom',
          path: ['subtype'],
          message: allowed.length
            ? `subtype of a ${g.type} must be one of ${allowed.join(', ')}`
            : `a ${g.type} has no subtype`,
        })
      }
    }
    if (g.id !== undefined && g.count !== 1) {
      ctx.addIssue({ code: 'custom', path: ['id'], message: 'an id names one activation: count must be 1' })
    }
    if (g.state === 'not_started' && g.entries > 0) {
      ctx.addIssue({ code: 'custom', path: ['entries'], message: 'activations that have not started have no entries' })
    }
    for (const key of ['winners', 'completed', 'replays'] as const) {
      const value = g[key]
      if (value !== undefined && value > g.entries) {
        ctx.addIssue({ code: 'custom', path: [key], message: `${key} (${value}) cannot exceed entries (${g.entries})` })
      }
    }
    if (g.voided !== undefined && g.winners !== undefined && g.voided > g.winners) {
      ctx.addIssue({
        code: 'custom',
        path: ['voided'],
        message: `voided (${g.voided}) cannot exceed winners (${g.winners})`,
      })
    }
  })

/** An account: its API keys, plan and activations. A key sees only its own account. */
const accountSchema = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'name must be lower-case letters, digits and dashes'),
    apiKeys: z.array(z.string().min(1)).min(1),
    premium: z.boolean().default(true),
    rateLimit: rateLimitSchema.nullable().default(null),
    /** People who may enter the account's activations; an activation without replays needs as many as its entries. */
    people: z.number().int().min(1).max(ID_LIMITS.people).default(1000),
    /** The first people of the pool, as given (names and e-mails to test with); the rest are generated. */
    identities: z
      .array(
        z.strictObject({
          firstName: z.string().min(1),
          lastName: z.string().min(1),
          email: z.string().min(3).includes('@'),
        }),
      )
      .default([]),
    activations: z.array(activationGroupSchema).max(ID_LIMITS.groups).default([]),
  })
  .superRefine((a, ctx) => {
    a.activations.forEach((g, i) => {
      const distinct = g.entries - (g.replays ?? 0)
      if (distinct > a.people) {
        ctx.addIssue({
          code: 'custom',
          path: ['activations', i, 'entries'],
          message: `${g.entries} entries need at least ${distinct} people but the account has ${a.people}`,
        })
      }
    })
  })

const milliseconds = z.number().int().min(0).max(60_000)

/** A delay: milliseconds, or a seeded draw between `min` and `max`. */
const latencySchema = z.union([
  milliseconds,
  z.strictObject({ min: milliseconds, max: milliseconds }).refine((l) => l.min <= l.max, 'min must not be above max'),
])

/** The endpoints' choices where the spec is silent (see the README's contract table). */
export const endpointDefaultsSchema = z.strictObject({
  /** The `limit` of each list when a request gives none. */
  defaultLimits: z
    .strictObject({
      activations: z.number().int().min(1).max(LIMIT_MAX.activations).optional(),
      entries: z.number().int().min(1).max(LIMIT_MAX.entries).optional(),
      participants: z.number().int().min(1).max(LIMIT_MAX.participants).optional(),
    })
    .optional(),
  /** What entry filters do on types they do not apply to. */
  unsupportedFilter: z.enum(['empty', 'ignore', 'reject']).optional(),
  /** Send `Retry-After` and `X-RateLimit-*` headers. */
  rateLimitHeaders: z.boolean().optional(),
  /**
   * The order of the lists: activations `newest-first` (startTime, then id; the default) or
   * `oldest-first` (its exact reverse); participants `oldest-first` (firstEnteredAt, then id; the
   * default) or `newest-first` (its exact reverse).
   */
  order: z
    .strictObject({
      activations: z.enum(['newest-first', 'oldest-first']).optional(),
      participants: z.enum(['oldest-first', 'newest-first']).optional(),
    })
    .optional(),
})

/** Faults to inject, so that clients' retries and timeouts are exercised. */
export const faultsSchema = z.strictObject({
  /** Delay every answer. */
  latency: latencySchema.optional(),
  /** The share of requests (0 to 1) answered 500 instead, by a seeded draw, after the key and rate-limit checks. */
  errorRate: z.number().min(0).max(1).optional(),
})

/** The seed of a scenario that gives none (and extends none): any fixed number keeps a world reproducible. */
const DEFAULT_SEED = 0

const scenarioShape = {
  name: z.string().min(1),
  /** One line: what the scenario reproduces. */
  description: z.string().min(1),
  seed: z.number().int().min(0).max(0xffffffff).default(DEFAULT_SEED),
  /** Freezes the clock at this ISO time; otherwise the world is built around the time it starts. */
  now: z.iso.datetime({ offset: true }).optional(),
  accounts: z.array(accountSchema).min(1).max(ID_LIMITS.accounts),
  endpoints: endpointDefaultsSchema.optional(),
  faults: faultsSchema.optional(),
  /**
   * Allow activations of the four types whose responses the spec does not show (survey, quiz,
   * ultimate_team, game), served as the emulator guesses them. Off: worlds hold only the ten documented types.
   */
  undocumentedTypes: z.boolean().default(false),
  /** How fast running activations receive entries in a live world, where a group does not say; none by default (a still world). */
  live: liveSchema.optional(),
}

/** A scenario: the world the emulator serves. Plain data; the library turns it into a world. */
export const scenarioSchema = z.strictObject(scenarioShape).superRefine((s, ctx) => {
  const names = new Set<string>()
  const keys = new Set<string>()
  const unlisted: ReadonlySet<string> = new Set(UNLISTED_TYPES)
  let activations = 0
  let entries = 0
  s.accounts.forEach((a, i) => {
    a.activations.forEach((g, j) => {
      const path = ['accounts', i, 'activations', j]
      if (activations <= WORLD_LIMITS.activations && (activations += g.count) > WORLD_LIMITS.activations)
        ctx.addIssue({
          code: 'custom',
          path: [...path, 'count'],
          message: `a world holds at most ${WORLD_LIMITS.activations.toLocaleString('en')} activations; with this group it would hold ${activations.toLocaleString('en')}`,
        })
      if (entries <= WORLD_LIMITS.entries && (entries += g.count * g.entries) > WORLD_LIMITS.entries)
        ctx.addIssue({
          code: 'custom',
          path: [...path, 'entries'],
          message: `a world holds at most ${WORLD_LIMITS.entries.toLocaleString('en')} generated entries (count times entries, over every group); with this group it would hold ${entries.toLocaleString('en')}`,
        })
    })
    if (!s.undocumentedTypes) {
      a.activations.forEach((g, j) => {
        if (unlisted.has(g.type))
          ctx.addIssue({
            code: 'custom',
            path: ['accounts', i, 'activations', j, 'type'],
            message: `the spec does not show how a ${g.type} activation looks in a response: set undocumentedTypes: true to serve the emulator's guess`,
          })
      })
    }
    if (names.has(a.name))
      ctx.addIssue({ code: 'custom', path: ['accounts', i, 'name'], message: `duplicate account name ${a.name}` })
    names.add(a.name)
    a.apiKeys.forEach((key, j) => {
      if (keys.has(key))
        ctx.addIssue({ code: 'custom', path: ['accounts', i, 'apiKeys', j], message: `API key ${key} is used twice` })
      keys.add(key)
    })
  })
})

/** A scenario as written (defaults may be left out). */
export type ScenarioInput = z.input<typeof scenarioSchema>

/**
 * A scenario written as changes to another one, named by `extends` (a built-in scenario). Its fields
 * replace the base's; `endpoints` and `faults` are merged field by field; an account with a base
 * account's name is merged with it (its `activations`, when given, replace the base's), and other
 * accounts are added.
 */
export type ScenarioExtension = {
  extends: string
  name: string
  description: string
  seed?: number
  now?: string
  accounts?: Array<Partial<z.input<typeof accountSchema>> & { name: string }>
  endpoints?: z.input<typeof endpointDefaultsSchema>
  faults?: z.input<typeof faultsSchema>
  undocumentedTypes?: boolean
  live?: z.input<typeof liveSchema>
}
/** A scenario after validation, with every default filled in. */
export type Scenario = z.output<typeof scenarioSchema>
export type Account = z.output<typeof accountSchema>

/**
 * Type-checks a scenario written as data; the library validates it again when it loads.
 * @example export const tiny = defineScenario({ name: 'tiny', description: 'One giveaway', seed: 1, accounts: [...] })
 */
export function defineScenario<const S extends ScenarioInput | ScenarioExtension>(scenario: S): S {
  return scenario
}

/**
 * Validates a scenario and fills in its defaults; throws one error that lists every problem, each with its path.
 * @example const scenario = parseScenario(JSON.parse(text), 'my-case.json')
 */
export function parseScenario(input: unknown, source = 'scenario'): Scenario {
  const result = scenarioSchema.safeParse(input, PARSED_ONCE)
  if (!result.success) {
    const problems = problemLines(result.error.issues)
    throw new EmulatorError('bad_option', `Invalid ${source}:\n  ${problems.join('\n  ')}`)
  }
  return result.data
}
