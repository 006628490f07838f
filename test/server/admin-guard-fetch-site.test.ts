/**
 * Another site's page reaches the admin API without an Origin when it asks for a GET (an `<img>`, a
 * `<script>`, a link followed): its browser says so in `Sec-Fetch-Site`. The admin API refuses such a
 * request as it refuses a foreign Origin; tools (no such header), its own pages (`same-origin`) and what
 * a user typed (`none`) are answered, and the inspector's page and script open from anywhere.
 */
import type { IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_ROUTES } from '../../handlers/admin/index.js'
import { adminGuardOf } from '../../src/node/server/admin-guard.js'
import { startCli, type CliServer } from '../support/cli.js'
import { WAIT } from '../support/timeouts.js'
import { rawRequest } from './raw-http.js'

const NOW = '2026-06-01T12:00:00.000Z'
const REFUSED = (site: string) =>
  `Sec-Fetch-Site ${JSON.stringify(site)} without an Origin is not allowed on the admin API: it answers its own pages, loopback origins and the origins given with --admin-origin (adminOrigins)`

/** Every path a GET reaches under the admin prefix, each route's parameters filled in. */
const ADMIN_GETS = ADMIN_ROUTES.filter((r) => r.method === 'get' || r.method === 'all').map(
  (r) =>
    `/__emulator${r.path
      .replace(':account', 'acme')
      .replace(':name', 'acme')
      .replace(':id', 'sbx_none')
      .replace(':seq', '1')
      .replace('*', r.path.startsWith('/view') ? 'activations/list' : 'state')}`,
)

function req(headers: Record<string, string>, method = 'GET'): IncomingMessage {
  return { method, headers } as unknown as IncomingMessage
}

describe('the Sec-Fetch-Site rule', () => {
  const guard = adminGuardOf('127.0.0.1', { adminOrigins: ['https://dashboard.test'] })
  const verdict = (headers: Record<string, string>, path = '/__emulator/dump', method = 'GET') =>
    guard(req({ host: '127.0.0.1:4010', ...headers }, method), path)

  it('refuses cross-site and same-site without an Origin, in any case, with 403 naming the header', () => {
    for (const site of ['cross-site', 'same-site', 'Cross-Site', 'cross-site, cross-site']) {
      for (const method of ['GET', 'HEAD', 'POST', 'DELETE']) {
        expect(verdict({ 'sec-fetch-site': site }, '/__emulator/dump', method), `${method} ${site}`).toEqual({
          refused: [403, REFUSED(site)],
          headers: { vary: 'Origin' },
        })
      }
    }
  })

  it('lets through same-origin, none and no header at all', () => {
    for (const headers of [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, {}] as Record<
      string,
      string
    >[]) {
      expect(verdict(headers).refused, JSON.stringify(headers)).toBeNull()
    }
  })

  it('leaves a request with an Origin to the Origin rule: a named or loopback origin passes, another is refused', () => {
    const named = verdict({ 'sec-fetch-site': 'cross-site', origin: 'https://dashboard.test' })
    expect(named).toEqual({
      refused: null,
      headers: { 'access-control-allow-origin': 'https://dashboard.test', vary: 'Origin' },
    })
    expect(verdict({ 'sec-fetch-site': 'same-site', origin: 'http://localhost:5173' }).refused).toBeNull()
    expect(verdict({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }).refused?.[1]).toMatch(
      /^Origin "https:\/\/evil\.example" is not allowed/,
    )
  })

  it("opens the inspector's page and script from any site (GET, HEAD), but not its endpoint", () => {
    for (const path of ['/__emulator', '/__emulator/', '/__emulator/client.js', '/__EMULATOR/Client.js']) {
      for (const method of ['GET', 'HEAD']) {
        expect(verdict({ 'sec-fetch-site': 'cross-site' }, path, method).refused, `${method} ${path}`).toBeNull()
      }
    }
    expect(verdict({ 'sec-fetch-site': 'cross-site' }, '/__emulator', 'POST').refused?.[0]).toBe(403)
    expect(verdict({ 'sec-fetch-site': 'cross-site' }, '/__emulator/inspector/answer', 'POST').refused?.[0]).toBe(403)
  })
})

/** The status of a GET as sent with `headers`, read from the answer's first line (a stream is not waited for). */
function statusOf(url: string, path: string, headers: Record<string, string>): Promise<number> {
  const { hostname, port, host } = new URL(url)
  const lines = Object.entries({ host, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`))
    let text = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(text)
      if (status) {
        socket.destroy()
        resolve(Number(status[1]))
      }
    })
    socket.on('error', reject)
    socket.setTimeout(WAIT.soon, () => reject(new Error(`No answer to ${path} within ${WAIT.soon} ms`)))
  })
}

describe('from the command line, with its defaults', () => {
  let cli: CliServer
  beforeAll(async () => {
    cli = await startCli(['-s', 'empty', '--now', NOW])
  })
  afterAll(() => cli?.stop())

  it('answers 403 to every admin GET another site asked for, with the whole refusal as a foreign Origin gets it', async () => {
    expect(ADMIN_GETS).toEqual(expect.arrayContaining(['/__emulator/dump', '/__emulator/requests/stream']))
    for (const path of [...ADMIN_GETS, '/__emulator/inspector/answer']) {
      for (const site of ['cross-site', 'same-site']) {
        const { host } = new URL(cli.url)
        const answer = await rawRequest(
          cli.url,
          `GET ${path} HTTP/1.1\r\nhost: ${host}\r\nsec-fetch-site: ${site}\r\nconnection: close\r\n\r\n`,
        )
        expect(answer.status, `${site} ${path}`).toBe(403)
        expect(answer.headers['content-type']).toBe('application/json')
        expect(answer.headers['access-control-allow-origin']).toBeUndefined()
        expect(JSON.parse(answer.body)).toEqual({ error: REFUSED(site) })
      }
    }
  })

  it('answers the same GETs from its own pages, a typed address and tools, and the inspector from any site', async () => {
    for (const path of ADMIN_GETS) {
      for (const headers of [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, {}] as Record<
        string,
        string
      >[]) {
        // The paths with a made-up sandbox or account answer 404; none is refused.
        const status = await statusOf(cli.url, path, headers)
        expect([200, 404], `${JSON.stringify(headers)} ${path}: ${status}`).toContain(status)
      }
    }
    for (const path of ['/__emulator/', '/__emulator/client.js']) {
      expect(await statusOf(cli.url, path, { 'sec-fetch-site': 'cross-site' }), path).toBe(200)
    }
  })
})
