import { EmulatorError } from '../../src/contract/emulator-error.js'
import { parseDuration, parseInstant, type Clock } from '../../src/time/clock.js'
import { bodyOf, json, onlyFields } from './answers.js'
import type { AdminRoute } from './context.js'

/** What `POST /__emulator/clock` does: checks all of `set`, `advance` and `freeze` first, then applies them in that order. */
export function steerClock(clock: Clock, body: Record<string, unknown>): { now: string; frozen: boolean } {
  onlyFields(body, ['set', 'advance', 'freeze'])
  const { set, advance, freeze } = body
  if (set !== undefined && typeof set !== 'string' && typeof set !== 'number') parseInstant(String(set), 'set')
  const at = set === undefined ? undefined : parseInstant(set as string | number, 'set')
  const by = advance === undefined ? undefined : parseDuration(advance, 'advance', true)
  if (freeze !== undefined && typeof freeze !== 'boolean') {
    throw new EmulatorError(
      'bad_input',
      `freeze must be true (stop the clock) or false (let it run), got ${JSON.stringify(freeze)}`,
    )
  }
  if (at !== undefined) clock.set(at)
  if (by !== undefined) clock.advance(by)
  if (freeze === true) clock.freeze()
  if (freeze === false) clock.run()
  return { now: new Date(clock.now()).toISOString(), frozen: clock.frozen }
}

/** `GET /__emulator/clock`: the clock's instant and whether it is frozen. */
export const readClock: AdminRoute = {
  method: 'get',
  path: '/clock',
  what: 'read the clock',
  answer: ({ control }) =>
    json(200, { now: new Date(control.clock.now()).toISOString(), frozen: control.clock.frozen }),
}

/** `POST /__emulator/clock`: `{ set, advance, freeze }`, see steerClock. */
export const moveClock: AdminRoute = {
  method: 'post',
  path: '/clock',
  what: 'move the clock',
  answer: async ({ control }, { request }) => json(200, steerClock(control.clock, await bodyOf(request))),
}
