import { createHash } from 'node:crypto'
import { getResponse } from 'msw'
import { hashWalk } from '../../bench/pages-hash.js'
import { createEmulator, type Emulator } from '../../src/index.js'

// A built-in scenario's world, endpoint by endpoint: one SHA-256 over all the pages of each endpoint
// (every account in order, each walk followed to its end: bench/pages-hash.ts), one over the dump's
// records, and, for a scenario with seeded faults, one over which requests they answer 500.
// The world-stability test pins these; a hash that moves names what changed.

/** The lists walked from their first page, each hashed apart, with the page size of bench/pages-hash.ts. */
const LISTS = {
  'GET /activations/list': '/activations/list?limit=100',
  'GET /activations/latest': '/activations/latest?limit=100',
  'GET /experience/participants': '/experience/participants?limit=100',
} as const

/** Each activation's entries, hashed together, account by account. */
const ENTRIES = 'GET /activations/{id}'

/** How many requests the fault draws are taken over: at a 1-in-10 rate, about 20 answered 500. */
const FAULT_REQUESTS = 200

/** One list's pages for every account, in order. */
async function listHash(emulator: Emulator, path: string): Promise<string> {
  const hash = createHash('sha256')
  for (const account of emulator.accounts) {
    const key = account.apiKeys[0]
    if (key !== undefined) await hashWalk(hash, emulator, key, path)
  }
  return hash.digest('hex')
}

/** Every activation's entries for every account, in order. */
async function entriesHash(emulator: Emulator): Promise<string> {
  const hash = createHash('sha256')
  for (const account of emulator.accounts) {
    const key = account.apiKeys[0]
    if (key === undefined) continue
    for (const activation of emulator.db.index.activationsOf(account.name))
      await hashWalk(hash, emulator, key, `/activations/${encodeURIComponent(activation.id)}?limit=1000`)
  }
  return hash.digest('hex')
}

/** The dump's records, without the scenario written above them (as bench/world-hash.ts prints it). */
function dumpHash(emulator: Emulator): string {
  const hash = createHash('sha256')
  let head = true
  for (const chunk of emulator.dump()) {
    if (!head) hash.update(chunk)
    head = false
  }
  return hash.digest('hex')
}

/** The statuses of FAULT_REQUESTS requests in a row, with the scenario's error rate and no latency. */
async function faultHash(scenario: string, now: string): Promise<string> {
  const emulator = await createEmulator({ scenario, now, latency: 0 })
  const key = emulator.accounts[0]?.apiKeys[0] ?? ''
  const hash = createHash('sha256')
  for (let i = 0; i < FAULT_REQUESTS; i++) {
    const request = new Request(`${emulator.baseUrl}/activations/list?limit=1`, {
      headers: { authorization: `Api-Key ${key}` },
    })
    const response = await getResponse(emulator.handlers, request)
    hash.update(`${response?.status ?? 'none'}\n`)
  }
  return hash.digest('hex')
}

/**
 * The hashes of a built-in scenario's world at its own seed and a frozen instant, by part: each
 * endpoint's pages with rate limits and faults off (so that every walk reaches its end), the dump,
 * and the fault draws where the scenario has an error rate.
 * @example const hashes = await worldHashes('default', '2026-06-01T12:00:00.000Z')
 */
export async function worldHashes(scenario: string, now: string): Promise<Record<string, string>> {
  const emulator = await createEmulator({ scenario, now })
  emulator.faults.clear()
  for (const account of emulator.accounts) emulator.set({ account: account.name, rateLimit: null })
  const hashes: Record<string, string> = {}
  for (const [endpoint, path] of Object.entries(LISTS)) hashes[endpoint] = await listHash(emulator, path)
  hashes[ENTRIES] = await entriesHash(emulator)
  hashes['dump'] = dumpHash(emulator)
  if ((emulator.scenario.faults?.errorRate ?? 0) > 0) hashes['fault draws'] = await faultHash(scenario, now)
  return hashes
}
