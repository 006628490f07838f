import { EmulatorError } from '../contract/emulator-error.js'
import type { EmulatorFaults } from './emulator-type.js'
import type { ControlChange } from './control-log.js'
import type { FaultRule, FaultRuleInput, FaultRules } from './fault-rules.js'

/**
 * An emulator's fault rules as its users see them (`emulator.faults`): the options' rules
 * (`latency`, `errorRate`) and the ones it starts with first, then those added; `reset()` puts those
 * back. The rules themselves, and what they decide for a request, are `FaultRules`'.
 */
export class EmulatorFaultList implements EmulatorFaults {
  readonly #rules: FaultRules
  readonly #start: () => readonly FaultRuleInput[]
  readonly #changed: (change: ControlChange) => void

  /** `start` gives the rules it starts with, in order (read at each reset); `changed` hears each change that took effect. */
  constructor(
    rules: FaultRules,
    start: () => readonly FaultRuleInput[],
    changed: (change: ControlChange) => void = () => {},
  ) {
    this.#rules = rules
    this.#start = start
    this.#changed = changed
    this.reset()
  }

  add(rule: FaultRuleInput): FaultRule {
    const added = this.#rules.add(rule)
    this.#changed({ change: 'faultAdded', rule: JSON.parse(JSON.stringify(rule)) as unknown })
    return added
  }

  list(): FaultRule[] {
    return this.#rules.list()
  }

  remove(id: string): FaultRule {
    const rule = this.#rules.list().find((r) => r.id === id)
    if (!rule || !this.#rules.remove(id)) {
      const ids = this.#rules.list().map((r) => r.id)
      throw new EmulatorError(
        'unknown_fault_rule',
        `Unknown fault rule ${JSON.stringify(id)}: the rules are ${ids.length ? ids.join(', ') : 'none'}`,
      )
    }
    this.#changed({ change: 'faultRemoved', id })
    return rule
  }

  clear(): void {
    this.#rules.clear()
    this.#changed({ change: 'faultsCleared' })
  }

  /** Back to the rules it started with. */
  reset(): void {
    this.#rules.reset()
    for (const rule of this.#start()) this.#rules.add(rule)
  }
}
