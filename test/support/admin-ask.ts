import { getResponse } from 'msw'
import type { Emulator } from '../../src/index.js'

/** An answer read whole: its status and its JSON body (null when empty). */
export type Answer = { status: number; body: any }

/**
 * A request through an emulator's admin handlers and API handlers, in-process: `key` sets its
 * `Api-Key`, a body is sent as JSON.
 * @example const { status, body } = await ask(host, `${ORIGIN}/__emulator/sandboxes`, { method: 'POST', body: '{}' })
 */
export async function ask(emulator: Emulator, url: string, init: RequestInit & { key?: string } = {}): Promise<Answer> {
  const { key, ...rest } = init
  const headers = new Headers(rest.headers)
  if (key !== undefined) headers.set('authorization', `Api-Key ${key}`)
  if (rest.body !== undefined) headers.set('content-type', 'application/json')
  const response = await getResponse(
    [...emulator.adminHandlers, ...emulator.handlers],
    new Request(url, { ...rest, headers }),
  )
  const text = (await response?.text()) ?? ''
  return { status: response?.status ?? 0, body: text ? JSON.parse(text) : null }
}
