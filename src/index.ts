// activation-emulator's public API: everything of the browser entry, and the Node-only pieces.

import { loadMswInNode } from './node/msw-in-node.js'
import { encodeUtf8InNode } from './node/utf8-in-node.js'

export * from './browser.js'
// serve loads the server's module when called (serve-on-call.ts).
export { serve } from './node/serve-on-call.js'
export type { RequestLog, RunningServer, ServeOptions } from './node/server/options.js'
export { loadScenarioFile } from './node/scenario-file.js'
// One handle shape in every mode (EmulatorHandle, in the browser entry): useEmulator's in-process,
// useServer's and connect's over a running server's admin API, useSandbox's over a sandbox of one.
// Each mode's own handle type is the return type of its function (ReturnType<typeof useSandbox>).
// useEmulator starts msw/node's setupServer: in a browser, setupWorker(...emulator.handlers) instead.
export { useEmulator, type LifecycleHooks, type MswServer, type UseEmulatorOptions } from './node/use-emulator.js'
export { connect, useServer } from './node/use-server.js'
// useSandbox talks HTTP to a running server: a sandbox of its own for each test.
export { useSandbox } from './node/use-sandbox.js'

// In Node, createEmulator reads msw 2's `msw/core/http` rather than msw's main entry, which imports
// GraphQL's parser whole (see handlers/msw-runtime.ts), and records' bytes are written by Node's
// Buffer (see handlers/utf8-bytes.ts): the side effects of this entry, and the only ones.
loadMswInNode()
encodeUtf8InNode()
