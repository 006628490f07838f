import type { RateLimit } from '../../contract/rate-limit.js'
import { DEFAULT_ENDPOINT_OPTIONS } from '../../emulator/emulator-options.js'
import type { Scenario } from '../../world/scenario.js'

/** Which way a list runs: its sort key newest first or oldest first. */
export type ListOrder = 'newest-first' | 'oldest-first'

/** The emulator's default orders: activations by startTime newest first, participants by firstEnteredAt oldest first. */
export const DEFAULT_ORDER: Readonly<{ activations: ListOrder; participants: ListOrder }> =
  DEFAULT_ENDPOINT_OPTIONS.order

/**
 * What the emulator does where the spec is silent and a setting can change it: what verify compares
 * the real API with, and what `--suggest-config` writes the changes of.
 */
export type Expected = {
  defaultLimits: { activations: number; entries: number; participants: number }
  unsupportedFilter: 'empty' | 'ignore' | 'reject'
  rateLimitHeaders: boolean
  order: { activations: ListOrder; participants: ListOrder }
  /** The premium feature of the scenario's first account. */
  premium: boolean
  /** The rate limit of the scenario's first account; null: none. */
  rateLimit: RateLimit | null
  undocumentedTypes: boolean
}

/**
 * What an emulator serving `scenario` (with no createEmulator options over it) does: the library's
 * defaults (DEFAULT_ENDPOINT_OPTIONS, DEFAULT_ORDER) with the scenario's `endpoints` and its first account over them.
 * @example expectedOf(resolveScenario('default')).defaultLimits.activations // 20
 */
export function expectedOf(scenario: Scenario): Expected {
  const endpoints = scenario.endpoints ?? {}
  const account = scenario.accounts[0]
  return {
    defaultLimits: { ...DEFAULT_ENDPOINT_OPTIONS.defaultLimits, ...endpoints.defaultLimits },
    unsupportedFilter: endpoints.unsupportedFilter ?? DEFAULT_ENDPOINT_OPTIONS.unsupportedFilter,
    rateLimitHeaders: endpoints.rateLimitHeaders ?? DEFAULT_ENDPOINT_OPTIONS.rateLimitHeaders,
    order: { ...DEFAULT_ORDER, ...endpoints.order },
    premium: account?.premium ?? true,
    rateLimit: account?.rateLimit ?? null,
    undocumentedTypes: scenario.undocumentedTypes,
  }
}

/** A change to one setting that makes the emulator do what the real API did. */
export type Fix = Partial<Omit<Expected, 'defaultLimits' | 'order'>> & {
  defaultLimits?: Partial<Expected['defaultLimits']>
  order?: Partial<Expected['order']>
}
