import { httpUrl, needs, type FlagTable } from './flag-parsers.js'

// Every command's flags, and the checks of what is typed, exported from here as ever.
export { UsageError, type FlagTable } from './flag-parsers.js'
export { ignoreOtherCommandsVariables, namesOf, rejectRepeats, rejectUnknown } from './flag-checks.js'
export { dumpFlags, serveFlags } from './serve-flags.js'
export { recordFlags, verifyFlags } from './upstream-flags.js'

/** The flags of `openapi`. */
export const openApiFlags: FlagTable = {
  out: {
    alias: 'o',
    type: 'string',
    describe: 'Write to this file instead of stdout',
    coerce: needs('out', 'a file to write', (text) => text),
  },
  'server-url': {
    alias: 'base-url',
    type: 'string',
    describe:
      'The URL the document names as its server, where a generated client sends its requests (default: https://api.activations.test)',
    coerce: httpUrl('server-url', 'http://127.0.0.1:4010'),
  },
}
