/**
 * A walk through busy's largest activation in pages of 1,000, following `next`, from the built command
 * line as a user starts it (the request log on): each page after the second was made ahead while the
 * client read the one before (handlers/read-ahead.ts). Every page is the bytes the same page gets read
 * in-process in another order, which reads nothing ahead; and the request log names each of them.
 */
import { getResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { NOW_ISO } from '../support/api.js'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS } from '../support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

let cli: CliServer
let reference: Emulator
let id: string
let key: string

beforeAll(async () => {
  cli = await startCli(['--scenario', 'busy', '--now', NOW_ISO])
  reference = await createEmulator({ scenario: 'busy', now: NOW_ISO })
  const account = reference.accounts[0]!
  key = account.apiKeys[0]!
  const { index } = reference.db
  id = index
    .activationsOf(account.name)
    .reduce((a, b) => (index.entryListsOf(b.id).all.length > index.entryListsOf(a.id).all.length ? b : a)).id
})
afterAll(async () => {
  await cli?.stop()
  await reference?.close()
})

const path = (next: string | null) =>
  `/activations/${id}?limit=1000${next === null ? '' : `&next=${encodeURIComponent(next)}`}`

describe('a walk in pages of 1,000 over HTTP', () => {
  it('gets the bytes of each page as read in-process in another order', async () => {
    const walked: Array<{ cursor: string | null; text: string }> = []
    for (let cursor: string | null = null; ;) {
      const response: Response = await fetch(`${cli.url}${path(cursor)}`, {
        headers: { authorization: `Api-Key ${key}` },
      })
      expect(response.status).toBe(200)
      const text: string = await response.text()
      walked.push({ cursor, text })
      cursor = (JSON.parse(text) as { next: string | null }).next
      if (cursor === null) break
    }
    expect(walked.length).toBe(25)
    // Last page first: no page is asked with the next of the one before it.
    for (const { cursor, text } of [...walked].reverse()) {
      const request = new Request(`${reference.baseUrl}${path(cursor)}`, {
        headers: { authorization: `Api-Key ${key}` },
      })
      const response = await getResponse(reference.handlers, request)
      expect(await response!.text(), `the page from ${cursor}`).toBe(text)
    }
    await vi.waitFor(() =>
      expect(
        cli
          .stdout()
          .split('\n')
          .filter((line) => line.includes(`/activations/${id}`)).length,
      ).toBe(25),
    )
  })
})
