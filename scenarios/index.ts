import { defaultScenario } from './default.js'
import { everyTypeScenario } from './every-type.js'
import { busyScenario } from './busy.js'

/** The built-in scenarios by name. */
export const scenarios = {
  default: defaultScenario,
  'every-type': everyTypeScenario,
  busy: busyScenario,
} as const
