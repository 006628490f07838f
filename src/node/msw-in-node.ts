import type { http as Http } from 'msw'
import { runtimeOf, type MswRuntime } from '../../handlers/msw-adapter.js'
import { loadMswWith } from '../../handlers/msw-runtime.js'

/**
 * msw's pieces as Node reads them: msw 2's `msw/core/http`, which has `http` without the GraphQL
 * parser that msw 2's main entry imports whole; msw 3, which has no such subpath, from its main entry,
 * which has no GraphQL in it. The same modules as the test's own msw/node imports, never a second copy.
 */
async function mswInNode(): Promise<MswRuntime> {
  let http: typeof Http
  try {
    ;({ http } = await import('msw/core/http'))
  } catch {
    ;({ http } = await import('msw'))
  }
  return runtimeOf(http)
}

/** Has createEmulator read msw's pieces as Node can (see `mswInNode`); called by the package's Node entry and the command line. */
export function loadMswInNode(): void {
  loadMswWith(mswInNode)
}
