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
import { ASSUMED } from './openapi-assumed.js'
import { participantSchema } from './participant.js'
import {
  activationListSchema,
  activationWithEntriesSchema,
  entrySchema,
  errorBodySchema,
  participantListSchema,
} from './responses.js'

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
export function componentSchemas(): Record<string, unknown> {
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
