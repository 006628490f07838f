import type { Scenario, ScenarioExtension } from '../../world/scenario.js'
import type { Fix } from './expected.js'

/** The scenario verify compared with: a built-in's name, or a scenario file as written (`raw`) and resolved. */
export type VerifiedScenario =
  { builtIn: string; scenario: Scenario } | { file: string; raw: unknown; scenario: Scenario }

/** Every fix merged into one, later ones over earlier ones. */
function mergeFixes(fixes: Fix[]): Fix {
  const merged: Fix = {}
  for (const fix of fixes) {
    const { defaultLimits, order, ...rest } = fix
    Object.assign(merged, rest)
    if (defaultLimits) merged.defaultLimits = { ...merged.defaultLimits, ...defaultLimits }
    if (order) merged.order = { ...merged.order, ...order }
  }
  return merged
}

/** The fix as the parts of a scenario that carry it: `endpoints`, the first account, `undocumentedTypes`. */
function scenarioParts(fix: Fix) {
  const endpoints: Record<string, unknown> = {}
  if (fix.defaultLimits) endpoints['defaultLimits'] = fix.defaultLimits
  if (fix.unsupportedFilter !== undefined) endpoints['unsupportedFilter'] = fix.unsupportedFilter
  if (fix.rateLimitHeaders !== undefined) endpoints['rateLimitHeaders'] = fix.rateLimitHeaders
  if (fix.order) endpoints['order'] = fix.order
  const account: Record<string, unknown> = {}
  if (fix.premium !== undefined) account['premium'] = fix.premium
  if (fix.rateLimit !== undefined) account['rateLimit'] = fix.rateLimit
  return { endpoints, account }
}

/** Merges the fix into a scenario object (a whole one, or an extension), its first account named `account`. */
function applyTo(target: Record<string, unknown>, fix: Fix, accountName: string): Record<string, unknown> {
  const { endpoints, account } = scenarioParts(fix)
  const out = { ...target }
  if (Object.keys(endpoints).length) {
    const before = (out['endpoints'] ?? {}) as Record<string, unknown>
    out['endpoints'] = {
      ...before,
      ...endpoints,
      ...(endpoints['defaultLimits']
        ? { defaultLimits: { ...(before['defaultLimits'] as object), ...(endpoints['defaultLimits'] as object) } }
        : {}),
      ...(endpoints['order'] ? { order: { ...(before['order'] as object), ...(endpoints['order'] as object) } } : {}),
    }
  }
  if (Object.keys(account).length) {
    const accounts = [...((out['accounts'] ?? []) as Array<Record<string, unknown>>)]
    const at = accounts.findIndex((a) => a['name'] === accountName)
    if (at >= 0) accounts[at] = { ...accounts[at], ...account }
    else accounts.unshift({ name: accountName, ...account })
    out['accounts'] = accounts
  }
  if (fix.undocumentedTypes !== undefined) out['undocumentedTypes'] = fix.undocumentedTypes
  return out
}

/**
 * The scenario that makes the emulator do what verify found: for a built-in, a scenario that `extends`
 * it with only the changes; for a scenario file that extends a built-in, that file with the changes
 * merged in; for another scenario file, the whole scenario with the changes. Pass it back with
 * `--scenario file.json`, or `createEmulator({ scenario })`.
 * @example suggestedScenario({ builtIn: 'default', scenario }, [{ unsupportedFilter: 'reject' }], 'https://api.example.com')
 */
export function suggestedScenario(verified: VerifiedScenario, fixes: Fix[], against: string): Record<string, unknown> {
  const fix = mergeFixes(fixes)
  const accountName = verified.scenario.accounts[0]?.name ?? 'account'
  const description = `${verified.scenario.name}, with the settings activation-emulator verify found at ${against}`
  if ('builtIn' in verified) {
    const extension: ScenarioExtension = {
      extends: verified.builtIn,
      name: `${verified.builtIn}-verified`,
      description,
    }
    return applyTo(extension, fix, accountName)
  }
  const raw = verified.raw
  if (raw && typeof raw === 'object' && 'extends' in raw)
    return applyTo(raw as Record<string, unknown>, fix, accountName)
  return applyTo({ ...verified.scenario }, fix, accountName)
}
