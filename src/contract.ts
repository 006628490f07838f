// activation-emulator/contract: the Activation Data API's contract on its own, for the people who
// write its clients: the zod schemas of every body, the enums and per-type rules, the types (with
// `EntryOf` and the `isEntryOf` guard), a DateObject and an activation's state, the OpenAPI document,
// its paths as a type (for openapi-fetch) and `pages()`, which walks a list. No emulator, no msw, no
// Node built-in: it runs in any JavaScript runtime.

export * from './contract/enums.js'
export {
  filterApplies,
  TYPE_RULES,
  TYPED_ENTRY_FILTERS,
  typesOfFilter,
  type DefaultCount,
  type TypedEntryFilter,
  type TypeRules,
} from './contract/type-rules.js'
export { dateObjectSchema, toDateObject, type DateObject } from './contract/date-object.js'
export { stateOf } from './contract/state.js'
export { activationSchema, type Activation } from './contract/activation.js'
export { entrySchemas, isEntryOf, type Entry, type EntryOf } from './contract/entry.js'
export { participantSchema, type Participant } from './contract/participant.js'
export * from './contract/nested.js'
export {
  activationListSchema,
  activationWithEntriesSchema,
  errorBodySchema,
  LIMIT_MAX,
  participantListSchema,
  type ActivationList,
  type ActivationWithEntries,
  type ErrorBody,
  type ParticipantList,
} from './contract/responses.js'
export { rateLimitSchema, type RateLimit } from './contract/rate-limit.js'
export { openApiDocument, type OpenApiDocument, type OpenApiOptions } from './contract/openapi.js'
export type { operations, paths } from './contract/paths.js'
export { pages, type ApiPath, type FetchLike, type PageOf, type PagesOptions, type ParamsOf } from './contract/pages.js'
