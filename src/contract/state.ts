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

// The same rule read on ISO instants, which compare as text (every stored DateObject has one form):
// for code that holds the request's instant as ISO text and tests many activations against it.

/** Whether an activation has started at `nowIso` (it is running or ended): its startTime is at or before it. */
export function startedAt(activation: Pick<Activation, 'startTime'>, nowIso: string): boolean {
  return activation.startTime.iso <= nowIso
}

/** Whether an activation has ended at `nowIso`: its endTime is at or before it. */
export function endedAt(activation: Pick<Activation, 'endTime'>, nowIso: string): boolean {
  return activation.endTime.iso <= nowIso
}
