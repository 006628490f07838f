import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, serve, type RunningServer } from '../../src/index.js'
import { cleanEnv, runCli } from '../support/cli.js'
import { spawnOwned } from '../support/processes.js'

// `activation-emulator verify` as a user runs it, from the sources (tsx), against a server in this test.

const MAIN = fileURLToPath(new URL('../../src/node/cli/main.ts', import.meta.url))

type Run = { code: number | null; stdout: string; stderr: string }

function verify(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawnOwned(process.execPath, ['--import', 'tsx', MAIN, 'verify', ...args], { env: cleanEnv({}) })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

let server: RunningServer
let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-command-'))
  const emulator = await createEmulator({
    scenario: 'default',
    now: '2026-06-01T12:00:00Z',
    defaultLimits: { activations: 10 },
    unsupportedFilter: 'reject',
  })
  server = await serve(emulator, { port: 0 })
})
afterAll(() => server.close())

describe('activation-emulator verify', () => {
  it('prints the plan, then a Markdown report, and exits 1 when an assumption differs; --suggest-config and --json write files', async () => {
    const suggestion = join(dir, 'verified.json')
    const json = join(dir, 'report.json')
    const run = await verify([
      '--against',
      server.url,
      '--api-key',
      'demo-key',
      '--rps',
      '0',
      '--max-requests',
      '80',
      '--json',
      json,
      '--suggest-config',
      suggestion,
    ])
    expect(run.stderr).toMatch(
      /^Plan: at most 80 requests: \d+ to read the account, \d+ for \d+ probes, up to \d+ to look for a rate limit/,
    )
    expect(run.stderr).toContain(`Wrote the scenario that matches what was found to ${suggestion}`)
    expect(run.code).toBe(1)
    const lines = run.stdout.split('\n')
    expect(lines[0]).toBe('# activation-emulator verify')
    expect(lines[2]).toMatch(
      new RegExp(`^Against ${server.url}: \\d+ confirmed, 2 differ, \\d+ not checkable \\(80 requests\\)\\.$`),
    )
    expect(lines.filter((l) => l.includes('| **differs** |'))).toEqual([
      expect.stringMatching(
        /^\| `default-limit-activations`: .* \| \*\*differs\*\* \| the real API answers 10 activations with no limit, the emulator 20; request: `GET \/activations\/list`; setting: `endpoints.defaultLimits.activations: 10` \|$/,
      ),
      expect.stringMatching(/^\| `unsupported-filter`: .*setting: `endpoints.unsupportedFilter: 'reject'` \|$/),
    ])
    expect(JSON.parse(await readFile(suggestion, 'utf8'))).toMatchObject({
      extends: 'default',
      endpoints: { defaultLimits: { activations: 10 }, unsupportedFilter: 'reject' },
    })
    const report = JSON.parse(await readFile(json, 'utf8'))
    expect(report).toMatchObject({
      format: 'activation-emulator/verify@1',
      against: server.url,
      counts: { differs: 2 },
    })

    // The suggested scenario, given back as the settings to compare with: every checkable assumption confirmed.
    const again = await verify([
      '--against',
      server.url,
      '--api-key',
      'demo-key',
      '--rps',
      '0',
      '--max-requests',
      '80',
      '-s',
      suggestion,
    ])
    expect(again.stdout).toMatch(/: \d+ confirmed, 0 differ, /)
    expect(again.code).toBe(0)
  })

  it('refuses a missing --against or a bad flag value in one line, exit 1', async () => {
    const cases = [
      [
        ['--api-key', 'k'],
        'activation-emulator: verify needs --against URL: the base URL of the real API, such as https://api.example.com\n',
      ],
      [
        ['--against', 'ftp://x', '--api-key', 'k'],
        'activation-emulator: --against must be an http(s) URL such as https://api.example.com, got "ftp://x"\n',
      ],
      [
        ['--against', server.url, '--api-key', 'k', '--max-requests', '0'],
        'activation-emulator: --max-requests must be an integer from 1 to 100000, got "0"\n',
      ],
      [['--against', server.url], 'activation-emulator: verify needs --api-key KEY: an API key of the real account\n'],
    ] as const
    const runs = await Promise.all(cases.map(([args]) => verify([...args])))
    expect(runs).toEqual(cases.map(([, message]) => ({ code: 1, stdout: '', stderr: message })))
  })
})

describe('activation-emulator verify (the built command line), against an API that differs with no setting to match', () => {
  let clean: RunningServer
  let proxy: Server
  let url = ''
  beforeAll(async () => {
    const emulator = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00Z' })
    clean = await serve(emulator, { port: 0 })
    // The default emulator, except that a broken percent-encoding is answered 500.
    proxy = createServer(async (req, res) => {
      if (req.url === '/activations/%zz')
        return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}')
      const answer = await fetch(`${clean.url}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
      })
      res
        .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
        .end(Buffer.from(await answer.arrayBuffer()))
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    proxy.closeAllConnections()
    await new Promise((resolve) => proxy.close(resolve))
    await clean.close()
  })

  it('exits 1 on a difference that comes without a suggested setting (a probe answered 500) (issue 36)', async () => {
    const run = await runCli([
      'verify',
      '--against',
      url,
      '--api-key',
      'demo-key',
      '--rps',
      '0',
      '--max-requests',
      '80',
    ])
    // Every difference found comes without a setting that matches it: none suggests a fix.
    expect(run.stdout).toMatch(/: \d+ confirmed, [1-9] differ, \d+ not checkable/)
    expect(run.stdout).not.toContain('setting: `')
    expect(run.stdout).toMatch(
      /\| `malformed-path`: [^|]+ \| \*\*differs\*\* \| [^|]*500[^|]*; no setting matches it \|/,
    )
    expect(run.code).toBe(1)
  })
})
