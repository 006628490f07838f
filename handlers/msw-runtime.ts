// What the handlers use of msw when they run: its `http` and its HttpHandler and RequestHandler
// classes, from the msw that the test's own setupServer uses. createEmulator loads them once
// (`loadMswRuntime`) before it makes handlers; no module imports them. msw 2's main entry imports
// GraphQL's parser whole (about 45 of the 65 ms its import costs after msw/node's), which a test file
// that only serves these HTTP handlers never needs: in Node, the package's entry has msw 2's light
// `msw/core/http` read instead (src/node/msw-in-node.ts). Any other runtime reads msw's main entry.
import { runtimeOf, type MswRuntime } from './msw-adapter.js'

let load = async (): Promise<MswRuntime> => runtimeOf((await import('msw')).http)
let loaded: MswRuntime | undefined
let loading: Promise<MswRuntime> | undefined

/** Where msw's pieces are read from, for a runtime that has a lighter way than msw's main entry. */
export function loadMswWith(loader: () => Promise<MswRuntime>): void {
  load = loader
}

/** Loads msw's pieces once; createEmulator waits for it before it makes any handler. */
export function loadMswRuntime(): Promise<MswRuntime> {
  loading ??= load().then(
    (runtime) => (loaded = runtime),
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}

/** msw's pieces, once loaded. */
export function mswRuntime(): MswRuntime {
  if (!loaded) throw new Error('Failed to make a handler: msw is not loaded yet (await loadMswRuntime() first)')
  return loaded
}
