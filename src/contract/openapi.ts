import * as z from 'zod'
import { ASSUMED } from './openapi-assumed.js'
import { componentSchemas } from './openapi-components.js'
import {
  getActivationQuery,
  latestActivationQuery,
  LIMIT_MAX,
  listActivationsQuery,
  listParticipantsQuery,
  MAX_FILTER_INTEGER,
} from './responses.js'
import { DEFAULT_BASE_URL, DEFAULT_LIMITS, type ListLimits, type ListOrder } from './defaults.js'

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
  defaultLimits?: ListLimits
  /** The order of the lists, as the emulator is configured (its `order` option). Default: newest-first activations, oldest-first participants. */
  order?: { activations?: ListOrder; participants?: ListOrder }
  /** The document's `info.version`. */
  version?: string
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
const ORDERED = (list: 'activations' | 'participants', by: string, usual: ListOrder, order: ListOrder) => {
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
  Other: `${ASSUMED} any other status a fault rule injects, with its own message. A fault rule's \`answer\` may send any status, 200 included, with headers and a body of its own that this document does not describe.`,
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
