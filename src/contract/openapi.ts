import * as z from 'zod'
import { activationSchema } from './activation.js'
import { dateObjectSchema } from './date-object.js'
import { entrySchemas } from './entry.js'
import { RESPONSE_TYPES, UNLISTED_TYPES } from './enums.js'
import {
  activationEnteredSchema,
  addressSchema,
  bracketVoteSchema,
  choiceSchema,
  extraSchema,
  mediaSchema,
  participantExtraSchema,
  prizeSchema,
  scavengerSeatSchema,
  surveyAnswerSchema,
  utmSchema,
} from './nested.js'
import { participantSchema } from './participant.js'
import {
  activationListSchema,
  activationWithEntriesSchema,
  entrySchema,
  errorBodySchema,
  getActivationQuery,
  latestActivationQuery,
  LIMIT_MAX,
  listActivationsQuery,
  listParticipantsQuery,
  MAX_FILTER_INTEGER,
  participantListSchema,
} from './responses.js'
import { DEFAULT_BASE_URL, DEFAULT_LIMITS } from './defaults.js'

/** Marks what the spec does not show and the emulator chose, in every description that holds it. */
const ASSUMED = "Emulator's assumption (not shown by the spec):"

/** An OpenAPI 3.1 document, as plain JSON. */
export type OpenApiDocument = {
  openapi: '3.1.0'
  info: { title: string; version: string; description: string }
  servers: Array<{ url: string }>
  security: Array<Record<string, string[]>>
  paths: Record<string, Record<string, unknown>>
  components: {
    schemas: Record<string, unknown>
    securitySchemes: Record<string, unknown>
  }
}

/** What the document describes beyond the contract: where the API lives and the emulator's defaults. */
export type OpenApiOptions = {
  /** The server URL the document names. Default: the emulator's default base URL. */
  baseUrl?: string
  /** The `limit` each list uses when a request gives none, as the emulator is configured. */
  defaultLimits?: { activations: number; entries: number; participants: number }
  /** The order of the lists, as the emulator is configured (its `order` option). Default: newest-first activations, oldest-first participants. */
  order?: { activations?: 'newest-first' | 'oldest-first'; participants?: 'newest-first' | 'oldest-first' }
  /** The document's `info.version`. */
  version?: string
}

type Component = { id: string; schema: z.ZodType; description: string }

const nested = (what: string, fields: string) => `${what}. ${ASSUMED} the fields ${fields}.`

/** The named schemas of `components.schemas`, each with its description. */
const COMPONENTS: Component[] = [
  {
    id: 'DateObject',
    schema: dateObjectSchema,
    description: 'An instant: `iso` in UTC with milliseconds, `ts` the same instant in whole Unix seconds.',
  },
  {
    id: 'Activation',
    schema: activationSchema,
    description: `A promotional activation. \`subtype\` is present for giveaways and sweepstakes only. ${ASSUMED} \`type\` is one of the ten documented values; the four filter-only values (${UNLISTED_TYPES.join(', ')}) appear only in worlds that ask for them (\`undocumentedTypes\`).`,
  },
  ...Object.entries(entrySchemas).map(([type, schema]) => ({
    id: `${entryName(type)}Entry`,
    schema,
    description: (RESPONSE_TYPES as readonly string[]).includes(type)
      ? `An entry of a ${type} activation.`
      : `An entry of a ${type} activation. ${ASSUMED} the spec shows no entry fields for ${type}.`,
  })),
  { id: 'Entry', schema: entrySchema, description: "An entry: the common fields and those of its activation's type." },
  { id: 'Participant', schema: participantSchema, description: 'A participant across all activations of the account.' },
  {
    id: 'Extra',
    schema: extraSchema,
    description: nested('An answer to an extra form question or checkbox', 'key, label, type and value'),
  },
  {
    id: 'Media',
    schema: mediaSchema,
    description: nested('An uploaded photo or video', 'type, url, thumbnailUrl, width, height and durationSec'),
  },
  {
    id: 'Address',
    schema: addressSchema,
    description: nested('A mailing address', 'line1, line2, city, region, postalCode and country'),
  },
  {
    id: 'Utm',
    schema: utmSchema,
    description: nested('UTM information', 'source, medium, campaign, term and content'),
  },
  {
    id: 'Choice',
    schema: choiceSchema,
    description: nested('A vote choice of a vote-to-win sweepstakes', 'id and label'),
  },
  {
    id: 'BracketVote',
    schema: bracketVoteSchema,
    description: nested('The contestant a bracket entrant voted for', 'round, seed and contestant'),
  },
  { id: 'ScavengerSeat', schema: scavengerSeatSchema, description: nested('A seat location', 'section, row and seat') },
  {
    id: 'Prize',
    schema: prizeSchema,
    description: `A prize: \`title\` and \`subtitle\` are the spec's. ${ASSUMED} \`id\` and \`imageUrl\`.`,
  },
  {
    id: 'SurveyAnswer',
    schema: surveyAnswerSchema,
    description: nested('An answer of a survey entry', 'question and answer'),
  },
  {
    id: 'ParticipantExtra',
    schema: participantExtraSchema,
    description: nested(
      "An element of a participant's `extras`: a progressive-profiling answer",
      'key, label, value and answeredAt',
    ),
  },
  {
    id: 'ActivationEntered',
    schema: activationEnteredSchema,
    description: nested("An element of a participant's `activationsEntered`", 'id, type, title and firstEnteredAt'),
  },
  {
    id: 'ActivationList',
    schema: activationListSchema,
    description: 'A page of activations; `next` is null on the last page.',
  },
  {
    id: 'ActivationWithEntries',
    schema: activationWithEntriesSchema,
    description: 'An activation and a page of its entries; `next` is null on the last page.',
  },
  {
    id: 'ParticipantList',
    schema: participantListSchema,
    description: 'A page of participants; `next` is null on the last page.',
  },
  { id: 'Error', schema: errorBodySchema, description: 'The body of every 4xx and 5xx answer: what went wrong.' },
]

function entryName(type: string): string {
  return type.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase())
}

/** Every component's JSON Schema (zod's output, 2020-12 as OpenAPI 3.1 uses), with references between them. */
function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>()
  for (const c of COMPONENTS) registry.add(c.schema, { id: c.id })
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any' })
  return Object.fromEntries(
    COMPONENTS.map(({ id, description }) => {
      const { $schema: _schema, $id: _id, ...schema } = schemas[id] as Record<string, unknown>
      return [id, { description, ...schema }]
    }),
  )
}

/** A schema without its own `$schema`: the document's dialect (2020-12, OpenAPI 3.1's) is the one. */
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _, ...rest } = schema
  return rest
}

type ParameterNotes = Record<string, string>

const NEXT = 'The `next` value of the previous page. ' + `${ASSUMED} one that names no item of this list is 400.`
const LIMIT = (list: keyof typeof LIMIT_MAX, fallback: number) =>
  `The most items in the page, 1 to ${LIMIT_MAX[list]}. ${ASSUMED} ${fallback} when absent (the emulator's \`defaultLimits.${list}\`, configurable).`
/** How a list is ordered: its default order, or that order's exact reverse, each naming the option that changes it. */
const ORDERED = (
  list: 'activations' | 'participants',
  by: string,
  usual: 'newest-first' | 'oldest-first',
  order: 'newest-first' | 'oldest-first',
) => {
  const [first, other] = usual === 'newest-first' ? ['newest', 'oldest'] : ['oldest', 'newest']
  return order === usual
    ? `ordered by ${by} ${first} first, then id (the emulator's \`order.${list}\`, configurable: \`${other}-first\` is the exact reverse).`
    : `ordered by ${by} ${other} first, then id descending (the emulator's \`order.${list}: '${order}'\`): the exact reverse of its default, \`${usual}\`.`
}
const FLAG = (what: string) =>
  `When 1, only ${what}. ${ASSUMED} 0 is the same as leaving it out; on a type it does not apply to it selects no entry (\`unsupportedFilter\`, configurable).`
const BRACKET = (what: string) => `Bracket challenges only: ${what}. ${ASSUMED} 1 to ${MAX_FILTER_INTEGER}.`
const TYPES = `Activation types (repeat the parameter). ${ASSUMED} the four filter-only types match nothing in a world without them.`

function parameters(query: Record<string, z.ZodType>, notes: ParameterNotes) {
  return Object.entries(query).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    description: notes[name] ?? '',
    schema: withoutDialect(z.toJSONSchema(schema, { unrepresentable: 'any' })),
    ...(name.endsWith('[]') ? { style: 'form', explode: true } : {}),
  }))
}

const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } })
/** An `{error}` answer, written out in each operation (a fresh object: some tools skip a shared one). */
const error = (name: keyof typeof ERROR_RESPONSES) => ({ description: ERROR_RESPONSES[name], content: json('Error') })

/** The `{error}` answers every operation shares, by status. */
const ERROR_RESPONSES = {
  BadRequest: `A bad parameter, or a path whose percent-encoding is broken. ${ASSUMED} the status and message (the spec does not show them).`,
  Unauthorized: `No \`Authorization\` header, one that is not \`Api-Key <key>\`, or an unknown key. ${ASSUMED} the status and messages.`,
  Forbidden: `The account does not have the premium data feature. ${ASSUMED} the status and message.`,
  NotFound: `No such activation for this account (another account's is just as unknown), or \`latest\` with none started. ${ASSUMED} the status and messages.`,
  TooManyRequests: `The rate limit is exceeded; the message says how many seconds to wait. ${ASSUMED} the thresholds (configurable, off by default) and the \`Retry-After\` and \`X-RateLimit-*\` headers (off by default).`,
  ServerError: `A failure inside the emulator, or a fault injected on purpose (\`errorRate\`).`,
  Other: `${ASSUMED} any other status a fault rule injects, with its own message.`,
}

const standard = () => ({
  '400': error('BadRequest'),
  '401': error('Unauthorized'),
  '429': error('TooManyRequests'),
  '500': error('ServerError'),
  default: error('Other'),
})

function operation(
  operationId: string,
  summary: string,
  description: string,
  query: Record<string, z.ZodType>,
  notes: ParameterNotes,
  body: string,
  extra: Record<string, unknown>,
  pathParameters: unknown[] = [],
) {
  return {
    get: {
      operationId,
      summary,
      description,
      parameters: [...pathParameters, ...parameters(query, notes)],
      responses: { '200': { description: 'OK', content: json(body) }, ...standard(), ...extra },
    },
  }
}

/**
 * The Activation Data API as an OpenAPI 3.1 document, generated from the contract's schemas: the four
 * operations, every parameter with its bounds, every response body, the `{error}` answers and the
 * `Api-Key` scheme. What the spec does not show and the emulator assumes is marked in the descriptions.
 * @example const document = openApiDocument({ baseUrl: 'https://api.example.test/v1' })
 */
export function openApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const limits = options.defaultLimits ?? DEFAULT_LIMITS
  const entryNotes: ParameterNotes = {
    is_completed: FLAG('entries of players who completed the activation'),
    is_winner: FLAG('winning entries'),
    bracket_round: BRACKET('only votes submitted in that round'),
    bracket_seed: BRACKET('only entries that voted for the contestant with that seed'),
    start_date: 'Only entries entered on or after that date (YYYY-MM-DD) or time (YYYY-MM-DDTHH:mm:ss), in UTC.',
    limit: LIMIT('entries', limits.entries),
    next: NEXT,
  }
  const idParameter = {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The activation id, as found in the list; case-sensitive.',
    schema: { type: 'string' },
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Activation Data API (as activation-emulator serves it)',
      version: options.version ?? '0.0.0',
      description: `A read-only JSON API over promotional activations, their entries and (premium) participants. Generated from activation-emulator's contract schemas; descriptions that begin "${ASSUMED}" say what the emulator chose where the spec is silent.`,
    },
    servers: [{ url: options.baseUrl ?? DEFAULT_BASE_URL }],
    security: [{ ApiKey: [] }],
    paths: {
      '/activations/list': operation(
        'listActivations',
        'List activations',
        `Past, running and future activations of the account. ${ASSUMED} ${ORDERED('activations', 'startTime', 'newest-first', options.order?.activations ?? 'newest-first')}`,
        listActivationsQuery,
        {
          state: 'One running state.',
          start_date: 'Only activations that start on that UTC day.',
          'types[]': TYPES,
          limit: LIMIT('activations', limits.activations),
          next: NEXT,
        },
        'ActivationList',
        {},
      ),
      '/activations/latest': operation(
        'getLatestActivation',
        'The most recently started activation and its entries',
        `As /activations/{id}, for the activation with the most recent start date. ${ASSUMED} the latest startTime not after now (ties: the smaller id); 404 when none has started.`,
        latestActivationQuery,
        { ...entryNotes, 'types[]': TYPES },
        'ActivationWithEntries',
        { '404': error('NotFound') },
      ),
      '/activations/{id}': operation(
        'getActivation',
        'One activation and its entries',
        `${ASSUMED} entries in the order they were added.`,
        getActivationQuery,
        entryNotes,
        'ActivationWithEntries',
        { '404': error('NotFound') },
        [idParameter],
      ),
      '/experience/participants': operation(
        'listParticipants',
        'List participants (premium)',
        `All participants across every activation; a premium data feature. ${ASSUMED} ${ORDERED('participants', 'firstEnteredAt', 'oldest-first', options.order?.participants ?? 'oldest-first')}`,
        listParticipantsQuery,
        {
          start_date: 'Participants who first entered on or after that UTC day.',
          end_date: `Participants who first entered on or before that UTC day. ${ASSUMED} before start_date is 400.`,
          last_updated_since: `Participants who answered a progressive profiling question on or after that UTC day. ${ASSUMED} read from the answers' \`answeredAt\`.`,
          limit: LIMIT('participants', limits.participants),
          next: NEXT,
        },
        'ParticipantList',
        { '403': error('Forbidden') },
      ),
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The header `Authorization: Api-Key <API_KEY>`.',
        },
      },
    },
  }
}
