import { scenarios } from '../../scenarios/index.js'
import { parseScenario, type Scenario, type ScenarioExtension, type ScenarioInput } from './scenario.js'
import { EmulatorError } from '../contract/emulator-error.js'
import { didYouMean } from '../contract/did-you-mean.js'

/** The names of the built-in scenarios. */
const SCENARIO_NAMES = Object.keys(scenarios)

/**
 * A scenario from a built-in's name, a scenario object, or an extension of another scenario
 * (`extends`), validated with every default filled in. Throws naming what is wrong.
 * @example resolveScenario({ extends: 'default', name: 'slow', description: 'default, slowly', faults: { latency: 500 } })
 */
export function resolveScenario(input: string | ScenarioInput | ScenarioExtension, source = 'scenario'): Scenario {
  return parseScenario(expand(input, [], source), source)
}

function builtIn(name: string): ScenarioInput | ScenarioExtension {
  // Own names only: `constructor` or `__proto__` is no scenario.
  const found = Object.hasOwn(scenarios, name)
    ? (scenarios as Record<string, ScenarioInput | ScenarioExtension>)[name]
    : undefined
  if (!found) {
    throw new EmulatorError(
      'bad_option',
      `Unknown scenario ${JSON.stringify(name)}${didYouMean(name, SCENARIO_NAMES)}: the built-in ones are ${SCENARIO_NAMES.join(', ')}`,
    )
  }
  return found
}

/** Follows `extends` down to a plain scenario and applies each extension's changes on the way back up. */
function expand(input: unknown, chain: string[], source: string): unknown {
  if (typeof input === 'string') {
    if (chain.includes(input))
      throw new EmulatorError(
        'bad_option',
        `Invalid ${source}: scenarios extend each other in a circle (${[...chain, input].join(' > ')})`,
      )
    return expand(builtIn(input), [...chain, input], source)
  }
  if (!input || typeof input !== 'object' || !('extends' in input)) return input
  const { extends: baseName } = input as ScenarioExtension
  if (typeof baseName !== 'string')
    throw new EmulatorError('bad_option', `Invalid ${source}: extends must be the name of a built-in scenario`)
  return merged(parseScenario(expand(baseName, chain, source), `scenario ${baseName}`), input as ScenarioExtension)
}

/**
 * A scenario with an extension's changes applied (its `extends` names `base`): how a recorded world
 * (`data`) takes other settings. The extension may not add activation groups: a dumped world's
 * activations are its records.
 * @example extendScenario(dump.scenario, { extends: 'recorded', name: 'slow', description: 'recorded, slowly', faults: { latency: 500 } })
 */
export function extendScenario(base: Scenario, extension: ScenarioExtension, source = 'scenario'): Scenario {
  if (extension.extends !== base.name) {
    throw new EmulatorError(
      'bad_option',
      `Invalid ${source}: it extends ${JSON.stringify(extension.extends)}, but the world it is applied to is the scenario ${JSON.stringify(base.name)}`,
    )
  }
  const grows = (extension.accounts ?? []).findIndex((a) => a.activations !== undefined)
  if (grows >= 0) {
    throw new EmulatorError(
      'bad_option',
      `Invalid ${source}: accounts[${grows}].activations: a dumped or recorded world's activations are its records; add activations with emulator.addActivation (POST /__emulator/activations) instead`,
    )
  }
  return parseScenario(merged(base, extension), source)
}

/** An extension's changes over its base. */
function merged(base: Scenario, extension: ScenarioExtension): unknown {
  const { extends: _base, ...changes } = extension
  const accounts = [...base.accounts] as Array<Record<string, unknown>>
  for (const account of changes.accounts ?? []) {
    const at = accounts.findIndex((a) => a['name'] === account.name)
    if (at >= 0) accounts[at] = { ...accounts[at], ...account }
    else accounts.push(account)
  }
  return {
    ...base,
    ...changes,
    accounts,
    endpoints: {
      ...base.endpoints,
      ...changes.endpoints,
      defaultLimits: { ...base.endpoints?.defaultLimits, ...changes.endpoints?.defaultLimits },
      // Only when either sets it, so that a scenario without it reads as before.
      ...(base.endpoints?.order || changes.endpoints?.order
        ? { order: { ...base.endpoints?.order, ...changes.endpoints?.order } }
        : {}),
    },
    faults: { ...base.faults, ...changes.faults },
  }
}
