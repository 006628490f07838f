// The busy world as the sandbox benchmarks ask it: in-process, through the emulator's handlers
// (msw getResponse), with a key.
import { getResponse } from 'msw'
import { createEmulator, type Emulator, type Sandbox } from '../../src/index.js'

export const NOW = '2026-06-01T12:00:00.000Z'
export const KEY = 'busy-key'
export const FIRST_REQUEST = '/activations/list?limit=100'

/** A fresh busy emulator at NOW (a planned world). */
export const busy = () => createEmulator({ scenario: 'busy', now: NOW })

/** GET `path` of `emulator`'s handlers (at `base`, by default its base URL) with `key`; the body as text. */
export async function ask(emulator: Emulator, path: string, key: string, base = emulator.baseUrl): Promise<string> {
  const request = new Request(`${base}${path}`, { headers: { authorization: `Api-Key ${key}` } })
  const response = await getResponse(emulator.handlers, request)
  const text = await response!.text()
  if (response!.status !== 200) throw new Error(`Failed to get ${path}: ${response!.status} ${text.slice(0, 200)}`)
  return text
}

/** The key a sandbox gives busy's account. */
export const keyOf = (sandbox: Sandbox) => sandbox.apiKeys['busy']![0]!
