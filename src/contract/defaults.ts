/** A number for each list: the `limit` it uses when a request gives none. */
export type ListLimits = { activations: number; entries: number; participants: number }

/** Which end of a list a page starts from: `newest-first` or `oldest-first`. */
export type ListOrder = 'newest-first' | 'oldest-first'

/**
 * What the emulator assumes where the spec is silent and the OpenAPI document states too: the `limit`
 * of each list when a request gives none, and the base URL the handlers answer under by default.
 */
export const DEFAULT_LIMITS: Readonly<ListLimits> = {
  activations: 20,
  entries: 100,
  participants: 20,
}

/** The base URL the handlers answer under when none is given. */
export const DEFAULT_BASE_URL = 'https://api.activations.test'
