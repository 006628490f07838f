import { getResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openApiDocument } from '../src/contract.js'
import { createEmulator } from '../src/index.js'
import { startCli, type CliServer } from './support/cli.js'

// The document asked of a running emulator names that emulator as its server, so that a client
// generated from it (openapi-typescript, openapi-generator...) is sent where the document came from.
const NOW = '2026-06-01T12:00:00Z'
const paths = JSON.parse(JSON.stringify(openApiDocument().paths))

describe('GET /__emulator/openapi.json of the built command line’s server', () => {
  let server: CliServer | undefined
  beforeAll(async () => {
    server = await startCli(['-s', 'empty', '--now', NOW, '--quiet'])
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
  })

  it('names the server’s own URL as its server, and holds the same paths as `openapi` prints', async () => {
    const response = await fetch(`${server!.url}/__emulator/openapi.json`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const document = await response.json()
    expect(document.servers).toEqual([{ url: server!.url }])
    expect(document.paths).toEqual(paths)
  })

  it('asked of a sandbox, names the sandbox’s base URL', async () => {
    const opened = await fetch(`${server!.url}/__emulator/sandboxes`, { method: 'POST' })
    const { baseUrl, adminUrl } = await opened.json()
    const document = await (await fetch(`${adminUrl}/openapi.json`)).json()
    expect(document.servers).toEqual([{ url: baseUrl }])
    expect(baseUrl).toMatch(new RegExp(`^${server!.url}/sandboxes/`))
  })
})

describe('GET /__emulator/openapi.json in-process', () => {
  it('names the emulator’s base URL', async () => {
    const emulator = await createEmulator({ scenario: 'empty', now: NOW, baseUrl: 'https://api.example.test/v1' })
    const response = await getResponse(
      emulator.adminHandlers,
      new Request('https://api.example.test/__emulator/openapi.json'),
    )
    expect(response?.status).toBe(200)
    expect((await response!.json()).servers).toEqual([{ url: 'https://api.example.test/v1' }])
  })
})
