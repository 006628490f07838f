// One SHA-256 over every page an emulator serves: for each account, the activation list, the latest
// activation, the participants and each activation's entries, every page followed to its end, each
// page's status and bytes in order; then the world as `dump` writes it (which also fixes the
// collections' order). Two emulators with the same hash answer every one of those requests alike.
// Used by bench/test-suite-cost.ts, by the test of reset() and, endpoint by endpoint, by the
// world-stability test (test/support/world-hashes.ts).
import { createHash, type Hash } from 'node:crypto'
import { getResponse } from 'msw'
import type { Emulator } from '../src/index.js'

async function page(emulator: Emulator, key: string, path: string): Promise<{ status: number; text: string }> {
  const request = new Request(`${emulator.baseUrl}${path}`, { headers: { authorization: `Api-Key ${key}` } })
  const response = await getResponse(emulator.handlers, request)
  if (!response) throw new Error(`Failed to hash pages: nothing answered ${path}`)
  return { status: response.status, text: await response.text() }
}

/** Hashes each page from `path` on, following `next`; returns how many pages. */
export async function hashWalk(hash: Hash, emulator: Emulator, key: string, path: string): Promise<number> {
  const join = path.includes('?') ? '&' : '?'
  let next: string | null = null
  let pages = 0
  do {
    const answer = await page(emulator, key, next === null ? path : `${path}${join}next=${encodeURIComponent(next)}`)
    hash.update(`${path} ${answer.status}\n`).update(answer.text)
    pages++
    next = answer.status === 200 ? ((JSON.parse(answer.text) as { next?: string | null }).next ?? null) : null
  } while (next !== null)
  return pages
}

/**
 * The hash of every page and of the dump, and how many pages it read.
 * @example const { hash } = await pagesHash(emulator)
 */
export async function pagesHash(emulator: Emulator): Promise<{ hash: string; pages: number }> {
  const hash = createHash('sha256')
  let pages = 0
  for (const account of emulator.accounts) {
    const key = account.apiKeys[0]
    if (key === undefined) continue
    pages += await hashWalk(hash, emulator, key, '/activations/list?limit=100')
    pages += await hashWalk(hash, emulator, key, '/activations/latest?limit=100')
    pages += await hashWalk(hash, emulator, key, '/experience/participants?limit=100')
    for (const activation of emulator.db.index.activationsOf(account.name)) {
      pages += await hashWalk(hash, emulator, key, `/activations/${encodeURIComponent(activation.id)}?limit=1000`)
    }
  }
  for (const chunk of emulator.dump()) hash.update(chunk)
  return { hash: hash.digest('hex'), pages }
}
