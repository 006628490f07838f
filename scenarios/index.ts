import { busyScenario } from './busy.js'
import { defaultScenario } from './default.js'
import { edgeCasesScenario } from './edge-cases.js'
import { emptyScenario } from './empty.js'
import { everyTypeScenario } from './every-type.js'
import { multiAccountScenario } from './multi-account.js'
import { noPremiumScenario } from './no-premium.js'
import { rateLimitedScenario } from './rate-limited.js'
import { undocumentedTypesScenario } from './undocumented-types.js'
import { unstableScenario } from './unstable.js'

/** The built-in scenarios by name, in the order `--list-scenarios` shows them. */
export const scenarios = {
  default: defaultScenario,
  empty: emptyScenario,
  'every-type': everyTypeScenario,
  busy: busyScenario,
  'edge-cases': edgeCasesScenario,
  'no-premium': noPremiumScenario,
  'rate-limited': rateLimitedScenario,
  'multi-account': multiAccountScenario,
  unstable: unstableScenario,
  'undocumented-types': undocumentedTypesScenario,
} as const
