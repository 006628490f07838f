import type { Activation } from './activation.js'
import { toMillis } from './date-object.js'
import type { State } from './enums.js'

/**
 * The state of an activation at an instant: not started before startTime, running from startTime
 * until endTime, ended from endTime on.
 * @example stateOf(activation, clock.now()) // 'running'
 */
export function stateOf(activation: Pick<Activation, 'startTime' | 'endTime'>, now: number): State {
  if (now < toMillis(activation.startTime)) return 'not_started'
  return now < toMillis(activation.endTime) ? 'running' : 'ended'
}
