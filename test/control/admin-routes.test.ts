/**
 * The admin API's routes: one table (handlers/admin/index.ts), from which its handlers and each 405's
 * `Allow` are made. Written out here as the documentation lists them, so that a route added, dropped
 * or given another method shows.
 */
import { getResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { ADMIN_ROUTES } from '../../handlers/admin/index.js'
import { createEmulator } from '../../src/index.js'
import { NOW_ISO as NOW } from '../support/api.js'

const DOCUMENTED: Record<string, string> = {
  '/state': 'GET',
  '/openapi.json': 'GET',
  '/accounts': 'GET',
  '/view/:account/*': 'GET',
  '/requests/stream': 'GET',
  '/reset': 'POST',
  '/accounts/:name': 'PATCH',
  '/clock': 'GET, POST',
  '/faults': 'GET, POST, DELETE',
  '/faults/:id': 'DELETE',
  '/requests': 'GET, DELETE',
  '/requests/:seq/body': 'GET',
  '/report': 'GET',
  '/bundle': 'GET',
  '/activations/:id/entries': 'POST',
  '/activations': 'POST',
  '/dump': 'GET',
  '/sandboxes': 'POST, GET',
  '/sandboxes/:id': 'GET, DELETE',
  '/sandboxes/:id/*': 'ALL',
}

/** A path of each pattern, with its parameters filled in. */
const sample = (path: string) =>
  path
    .replace(':account', 'demo')
    .replace(':name', 'demo')
    .replace(':id', 'x')
    .replace(':seq', '1')
    .replace('*', 'activations/list')

describe('the admin API routes', () => {
  it('are the documented ones, each path with its methods', () => {
    const table: Record<string, string[]> = {}
    for (const route of ADMIN_ROUTES) (table[route.path] ??= []).push(route.method.toUpperCase())
    expect(Object.fromEntries(Object.entries(table).map(([path, methods]) => [path, methods.join(', ')]))).toEqual(
      DOCUMENTED,
    )
  })

  it('answer another method on each path with 405 and the methods it takes in Allow', async () => {
    const emulator = await createEmulator({ scenario: 'empty', now: NOW })
    const origin = new URL(emulator.baseUrl).origin
    for (const [path, allow] of Object.entries(DOCUMENTED)) {
      // A sandbox's own control endpoints answer for themselves (see test/sandboxes).
      if (allow === 'ALL') continue
      const response = await getResponse(
        emulator.adminHandlers,
        new Request(`${origin}/__emulator${sample(path)}`, { method: 'PUT' }),
      )
      expect([response?.status, response?.headers.get('allow')], path).toEqual([405, allow])
      expect(await response!.json()).toEqual({
        error: `Method PUT is not allowed on /__emulator${sample(path)}: use ${allow}`,
      })
    }
  })
})
