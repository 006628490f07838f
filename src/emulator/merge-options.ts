import type { EndpointOptions } from '../../handlers/index.js'
import { DEFAULT_ENDPOINT_OPTIONS, type EmulatorOptions } from './emulator-options.js'
import { parseScenario, type Scenario } from '../world/scenario.js'

/**
 * The scenario with what the options change in it: the seed, and the first account's keys, premium
 * feature and rate limit.
 */
export function scenarioWithOptions(base: Scenario, options: EmulatorOptions): Scenario {
  const scenario: Scenario = {
    ...base,
    seed: options.seed ?? base.seed,
    accounts: base.accounts.map((account, i) =>
      i > 0
        ? account
        : {
            ...account,
            apiKeys: options.apiKeys ?? account.apiKeys,
            premium: options.premium ?? account.premium,
            rateLimit: options.rateLimit === undefined ? account.rateLimit : options.rateLimit,
          },
    ),
  }
  if (options.apiKeys) parseScenario(scenario, 'scenario with the apiKeys option') // keys stay unique across accounts
  return scenario
}

/** The endpoints' choices: each the option, else the scenario's, else the default. */
export function endpointOptionsOf(options: EmulatorOptions, scenario: Scenario): EndpointOptions {
  const fromScenario = scenario.endpoints ?? {}
  const latency = options.latency ?? scenario.faults?.latency
  return {
    defaultLimits: {
      ...DEFAULT_ENDPOINT_OPTIONS.defaultLimits,
      ...withoutUndefined(fromScenario.defaultLimits),
      ...withoutUndefined(options.defaultLimits),
    },
    unsupportedFilter:
      options.unsupportedFilter ?? fromScenario.unsupportedFilter ?? DEFAULT_ENDPOINT_OPTIONS.unsupportedFilter,
    rateLimitHeaders:
      options.rateLimitHeaders ?? fromScenario.rateLimitHeaders ?? DEFAULT_ENDPOINT_OPTIONS.rateLimitHeaders,
    latency: typeof latency === 'number' ? { min: latency, max: latency } : (latency ?? null),
    errorRate: options.errorRate ?? scenario.faults?.errorRate ?? DEFAULT_ENDPOINT_OPTIONS.errorRate,
    order: {
      ...DEFAULT_ENDPOINT_OPTIONS.order,
      ...withoutUndefined(fromScenario.order),
      ...withoutUndefined(options.order),
    },
  }
}

/** An object without its undefined fields, so that spreading it leaves what it does not set alone. */
function withoutUndefined<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>
}
