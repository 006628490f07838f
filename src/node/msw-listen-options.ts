import { createRequire } from 'node:module'

/** What msw does with a request no handler answers: let it through, let it through with a warning, or fail it. */
export type UnhandledRequestStrategy = 'bypass' | 'warn' | 'error'

/**
 * The options of `server.listen()` that give msw this strategy. msw 2 reads `onUnhandledRequest`; msw 3
 * renamed it `onUnhandledFrame` (it also covers WebSocket frames) and ignores the old name without a word.
 */
export function listenOptions(
  strategy: UnhandledRequestStrategy,
  major: number = mswMajor(),
): { onUnhandledRequest: UnhandledRequestStrategy } | { onUnhandledFrame: UnhandledRequestStrategy } {
  return major >= 3 ? { onUnhandledFrame: strategy } : { onUnhandledRequest: strategy }
}

/** The major version of the msw this package loads (the one `import('msw/node')` finds from here). */
export function mswMajor(): number {
  let version: unknown
  try {
    version = (createRequire(import.meta.url)('msw/package.json') as { version?: unknown }).version
  } catch (error) {
    throw new Error(`Failed to read msw's version: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    })
  }
  const major = typeof version === 'string' ? Number.parseInt(version, 10) : Number.NaN
  if (!Number.isInteger(major))
    throw new Error(`Failed to read msw's version: its package.json says ${String(version)}`)
  return major
}
