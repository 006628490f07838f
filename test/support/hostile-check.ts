import { readFileSync } from 'node:fs'
import { getResponse } from 'msw'
import { expect } from 'vitest'
import { createEmulator } from '../../src/index.js'
import type { HostileUpstream } from './hostile-upstream.js'

/** Serves the world file and expects every page a clean recording at `limits` holds, byte for byte. */
export async function expectFaithful(
  file: string,
  upstream: HostileUpstream,
  limits: { activations: number; entries: number },
): Promise<number> {
  const served = await createEmulator({ data: JSON.parse(readFileSync(file, 'utf8')) })
  try {
    const pages = upstream.pagesAt(limits)
    for (const page of pages) {
      const request = new Request(`${served.baseUrl}${page.path}`, {
        headers: { authorization: 'Api-Key recorded-key-1' },
      })
      const response = (await getResponse(served.handlers, request))!
      expect(`${response.status} ${await response.text()}`, page.path).toBe(`200 ${JSON.stringify(page.body)}`)
    }
    return pages.length
  } finally {
    served.close()
  }
}
