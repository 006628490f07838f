import type * as z from 'zod'
import type {
  ActivationList,
  ActivationWithEntries,
  ErrorBody,
  getActivationQuery,
  latestActivationQuery,
  listActivationsQuery,
  listParticipantsQuery,
  ParticipantList,
} from './responses.js'

// The OpenAPI document's paths as a TypeScript type, in the shape openapi-typescript generates (so
// that openapi-fetch's `createClient<paths>()` takes it), written from the same schemas the document
// is generated from. One difference from a generated type: `next` takes `string | null`, so that a
// page's `next` goes back into the query as it is (null, on the first page, is the same as none).

/** A query's parameters, each optional, as a client writes them; `next` as a page gives it. */
type Query<Q extends Record<string, z.ZodType>> = { [K in Exclude<keyof Q, 'next'>]?: z.input<Q[K]> } & {
  next?: string | null
}

type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } }

/** The `{error}` answers of every operation, and those of some. */
type Errors = {
  400: Json<ErrorBody>
  401: Json<ErrorBody>
  429: Json<ErrorBody>
  500: Json<ErrorBody>
  default: Json<ErrorBody>
}

/** A GET operation: its parameters, and its answers by status. */
type Get<Params, Body, More = object> = {
  parameters: Params & { header?: never; cookie?: never }
  requestBody?: never
  responses: { 200: Json<Body> } & Errors & More
}

type PathItem<G> = {
  parameters: { query?: never; header?: never; path?: never; cookie?: never }
  get: G
  put?: never
  post?: never
  delete?: never
  options?: never
  head?: never
  patch?: never
  trace?: never
}

/** The operations of the Activation Data API, by operationId. */
export type operations = {
  listActivations: Get<{ query?: Query<typeof listActivationsQuery>; path?: never }, ActivationList>
  getLatestActivation: Get<
    { query?: Query<typeof latestActivationQuery>; path?: never },
    ActivationWithEntries,
    { 404: Json<ErrorBody> }
  >
  getActivation: Get<
    { query?: Query<typeof getActivationQuery>; path: { id: string } },
    ActivationWithEntries,
    { 404: Json<ErrorBody> }
  >
  listParticipants: Get<
    { query?: Query<typeof listParticipantsQuery>; path?: never },
    ParticipantList,
    { 403: Json<ErrorBody> }
  >
}

/**
 * The API's paths, typed: each operation's query and path parameters and each answer's body.
 * @example
 * import createClient from 'openapi-fetch'
 * const client = createClient<paths>({ baseUrl, headers: { Authorization: `Api-Key ${apiKey}` } })
 * const { data } = await client.GET('/activations/{id}', { params: { path: { id }, query: { next: page.next } } })
 */
export type paths = {
  '/activations/list': PathItem<operations['listActivations']>
  '/activations/latest': PathItem<operations['getLatestActivation']>
  '/activations/{id}': PathItem<operations['getActivation']>
  '/experience/participants': PathItem<operations['listParticipants']>
}
