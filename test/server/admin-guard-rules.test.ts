/**
 * The admin guard's rules one by one, each against every spelling of what it lets through and what it
 * refuses, on the verdict itself (admin-guard.test.ts checks them end to end over HTTP). Each rule here
 * was found missing by mutation testing (npm run test:mutation): a changed condition no test noticed.
 * Each guard is made inside the test that asks it, so that mutation testing counts what it runs as that
 * test's (not as code run while the file loads, which Stryker runs every test against).
 */
import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { notJsonMessage } from '../../handlers/errors.js'
import { adminGuardOf, isAdminPath, isLoopback, type AdminGuard } from '../../src/node/server/admin-guard.js'
import { urlOfTarget } from '../../src/node/server/request-url.js'

/** A request as node hands it to the guard: its method and headers (lower-case names). */
function req(headers: Record<string, string> = {}, method = 'GET'): IncomingMessage {
  return { method, headers } as unknown as IncomingMessage
}

const HOST_REFUSED = (header: string) =>
  `Host ${JSON.stringify(header)} is not allowed on the admin API: it answers loopback names and the address it listens on; allow another name with --allowed-host (allowedHosts)`
const ORIGIN_REFUSED = (origin: string) =>
  `Origin ${JSON.stringify(origin)} is not allowed on the admin API: it answers its own pages, loopback origins and the origins given with --admin-origin (adminOrigins)`

describe('isLoopback', () => {
  it('takes localhost, ::1, 127.0.0.0/8 and its IPv4-mapped form, and nothing else', () => {
    for (const host of ['localhost', '::1', '127.0.0.1', '127.255.3.9', '127.0.10.200', '::ffff:127.0.0.1']) {
      expect(isLoopback(host), host).toBe(true)
    }
    for (const host of ['0.0.0.0', '::', '128.0.0.1', '127.0.0.1.evil', 'x127.0.0.1', '127.0.0', 'localhost.', '']) {
      expect(isLoopback(host), host).toBe(false)
    }
  })
})

describe('isAdminPath', () => {
  it('is the admin prefix at the start of the path, in any case', () => {
    for (const path of ['/__emulator', '/__emulator/', '/__EMULATOR/state', '/__Emulator/clock']) {
      expect(isAdminPath(path), path).toBe(true)
    }
    for (const path of ['/', '/_emulator/state', '/activations/list', '/x/__emulator/state', '/__emulato']) {
      expect(isAdminPath(path), path).toBe(false)
    }
  })
})

describe('urlOfTarget', () => {
  const origin = 'http://127.0.0.1:4010'
  it('takes an origin-form target at the origin, dot segments resolved, and `//x` as a path', () => {
    expect(urlOfTarget(origin, '/activations/list?limit=5')?.href).toBe(`${origin}/activations/list?limit=5`)
    expect(urlOfTarget(origin, '/x/../__emulator/clock')?.pathname).toBe('/__emulator/clock')
    const doubled = urlOfTarget(origin, '//evil.example/x')
    expect([doubled?.host, doubled?.pathname]).toEqual(['127.0.0.1:4010', '//evil.example/x'])
  })
  it('takes the path and query of an absolute-form target, http or https in any case, never its host', () => {
    for (const target of ['http://evil.example/a/b?q=1', 'HTTPS://evil.example:8443/a/b?q=1', 'Http://x/a/./b?q=1']) {
      expect(urlOfTarget(origin, target)?.href, target).toBe(`${origin}/a/b?q=1`)
    }
  })
  it('is null for any other target, and for an origin that is not one', () => {
    for (const target of [
      '*',
      'evil.example/x',
      'foo:/http://x/',
      'ftp://evil.example/x',
      'http://[bad/x',
      'mailto:x@example.com',
      '',
    ]) {
      expect(urlOfTarget(origin, target), target).toBeNull()
    }
    expect(urlOfTarget('not an origin', '/x')).toBeNull()
  })
})

describe('the Host rule', () => {
  const guard: AdminGuard = (r, p) => adminGuardOf('127.0.0.1', {})(r, p)
  it('lets through no Host, loopback names in every spelling, and the address it listens on', () => {
    for (const host of [
      'localhost',
      'LOCALHOST:80',
      'localhost.',
      'Localhost.:4010',
      ' localhost ',
      'localhost:',
      'app.localhost',
      'a.b.localhost:4010',
      '127.0.0.1:4010',
      '127.3.4.5',
      '[::1]:4010',
      '[::1]',
      '[::ffff:127.0.0.1]:4010',
    ]) {
      expect(guard(req({ host }), '/__emulator/state'), host).toEqual({ refused: null, headers: {} })
    }
    expect(guard(req(), '/__emulator/state')).toEqual({ refused: null, headers: {} })
  })
  it('refuses any other name, and whatever is not a host, with 403 naming the header', () => {
    for (const host of [
      'evil.example',
      'evillocalhost',
      'evillocalhost:4010',
      'localhost.evil.example',
      '127.0.0.1.evil.example',
      '10.0.0.5',
      '[fd00::1]:4010',
      '',
      ':4010',
      'fd00::1',
      '[::1',
      'localhost:abc',
      'x]localhost',
      'evil.example]localhost:4010',
      'a b',
    ]) {
      expect(guard(req({ host }), '/__emulator/state'), host).toEqual({
        refused: [403, HOST_REFUSED(host)],
        headers: {},
      })
    }
  })
  it('takes the address it listens on and the allowed hosts in any case, brackets or not, but never a wildcard address', () => {
    const named = adminGuardOf('10.0.0.5', { allowedHosts: ['Emulator', '[FD00::1]', 'fd00::2'] })
    for (const host of ['10.0.0.5:4010', 'emulator:4010', 'EMULATOR', '[fd00::1]:4010', '[fd00::2]', 'localhost']) {
      expect(named(req({ host }), '/__emulator').refused, host).toBeNull()
    }
    for (const host of ['10.0.0.6', 'emulator.test', '[fd00::3]']) {
      expect(named(req({ host }), '/__emulator').refused?.[0], host).toBe(403)
    }
    for (const [listens, host] of [
      ['0.0.0.0', '0.0.0.0:4010'],
      ['::', '[::]:4010'],
      ['[::]', '[::]:4010'],
    ] as const) {
      expect(adminGuardOf(listens, {})(req({ host }), '/__emulator').refused?.[0], `${listens} ${host}`).toBe(403)
    }
  })
  it('answers a refusal with Vary: Origin when origins are named, and no other header', () => {
    const guard = adminGuardOf('127.0.0.1', { adminOrigins: ['http://dashboard.test'] })
    expect(guard(req({ host: 'evil.example' }), '/__emulator').headers).toEqual({ vary: 'Origin' })
  })
})

describe('the Origin rule', () => {
  const guard: AdminGuard = (r, p) =>
    adminGuardOf('127.0.0.1', { allowedHosts: ['emulator'], adminOrigins: ['HTTP://Dashboard.test:8080/'] })(r, p)
  const origin = (o: string, host = '127.0.0.1:4010') => guard(req({ host, origin: o }), '/__emulator/state')

  it('gives a named origin, in any case and with a slash or not, Access-Control-Allow-Origin as it was sent', () => {
    for (const o of ['http://dashboard.test:8080', 'http://DASHBOARD.test:8080/', 'http://dashboard.test:8080//']) {
      expect(origin(o), o).toEqual({ refused: null, headers: { 'access-control-allow-origin': o, vary: 'Origin' } })
    }
  })
  it('takes the named origins without their trailing slashes', () => {
    const slashes = adminGuardOf('127.0.0.1', { adminOrigins: ['http://b.test//'] })
    expect(slashes(req({ origin: 'http://b.test' }), '/__emulator').refused).toBeNull()
  })
  it('lets through its own origin and loopback origins, http or https, with Vary and no CORS header', () => {
    for (const [o, host] of [
      ['http://127.0.0.1:4010', '127.0.0.1:4010'],
      ['https://emulator:4010', 'emulator:4010'],
      ['http://emulator:4010', 'EMULATOR:4010'],
      ['http://localhost:5173', '127.0.0.1:4010'],
      ['http://app.localhost', '127.0.0.1:4010'],
      ['http://[::1]:3000', '127.0.0.1:4010'],
      ['http://127.9.9.9:3000', 'emulator:4010'],
    ] as const) {
      expect(origin(o, host), `${o} ${host}`).toEqual({ refused: null, headers: { vary: 'Origin' } })
    }
    expect(guard(req({ origin: 'http://localhost:5173' }), '/__emulator').refused).toBeNull()
  })
  it('refuses another origin, another port of its own name, another scheme, and what is not an origin', () => {
    for (const [o, host] of [
      ['https://evil.example', '127.0.0.1:4010'],
      ['http://emulator:4011', 'emulator:4010'],
      ['http://emulator:4010', '127.0.0.1:4010'],
      ['ftp://localhost', '127.0.0.1:4010'],
      ['file://localhost/x', '127.0.0.1:4010'],
      ['http://evillocalhost', '127.0.0.1:4010'],
      ['http://dashboard.test:8081', '127.0.0.1:4010'],
      ['null', '127.0.0.1:4010'],
      ['', '127.0.0.1:4010'],
    ] as const) {
      expect(origin(o, host), `${o} ${host}`).toEqual({
        refused: [403, ORIGIN_REFUSED(o)],
        headers: { vary: 'Origin' },
      })
    }
    expect(guard(req({ origin: 'http://emulator:4010' }), '/__emulator').refused?.[0]).toBe(403)
  })
})

describe('the token rule', () => {
  const asked: Array<string | undefined> = []
  const refusal = (header: string | null | undefined) => {
    asked.push(header ?? undefined)
    return header === 'Bearer t' ? null : 'no token'
  }
  const guard: AdminGuard = (r, p) =>
    adminGuardOf('127.0.0.1', { adminOrigins: ['http://dashboard.test'] }, refusal)(r, p)

  it('asks the token of every request but the inspector page, its script and a preflight', () => {
    for (const [method, path] of [
      ['GET', '/__emulator'],
      ['GET', '/__emulator/'],
      ['HEAD', '/__emulator/'],
      ['GET', '/__emulator/client.js'],
      ['GET', '/__EMULATOR/Client.js'],
    ] as const) {
      expect(guard(req({}, method), path).refused, `${method} ${path}`).toBeNull()
    }
    const preflight = req({ origin: 'http://dashboard.test', 'access-control-request-method': 'POST' }, 'OPTIONS')
    expect(guard(preflight, '/__emulator/clock').refused).toBeNull()
    expect(asked).toEqual([])
    // Access-Control-Request-Method makes a preflight of an OPTIONS only.
    const notPreflight = req({ 'access-control-request-method': 'POST' }, 'GET')
    expect(guard(notPreflight, '/__emulator/state').refused).toEqual([401, 'no token'])
    for (const [method, path] of [
      ['POST', '/__emulator'],
      ['DELETE', '/__emulator/'],
      ['GET', '/__emulator/state'],
      ['GET', '/__emulator/client.jsx'],
      ['OPTIONS', '/__emulator/clock'],
    ] as const) {
      expect(guard(req({}, method), path), `${method} ${path}`).toEqual({
        refused: [401, 'no token'],
        headers: { vary: 'Origin' },
        inspector: false,
      })
    }
    expect(guard(req({ authorization: 'Bearer t' }), '/__emulator/state')).toEqual({
      refused: null,
      headers: { vary: 'Origin' },
    })
    expect(asked.at(-1)).toBe('Bearer t')
  })
  it("marks the inspector's endpoint, in any case, and keeps a named origin's CORS headers on the 401", () => {
    const origin = 'http://dashboard.test'
    for (const path of ['/__emulator/inspector/answer', '/__EMULATOR/Inspector/Answer']) {
      expect(guard(req({ origin }, 'POST'), path)).toEqual({
        refused: [401, 'no token'],
        headers: { 'access-control-allow-origin': origin, vary: 'Origin' },
        inspector: true,
      })
    }
  })
  it('lets everything through without a token check', () => {
    expect(adminGuardOf('127.0.0.1', {})(req({}, 'DELETE'), '/__emulator/faults').refused).toBeNull()
  })
})

describe('the JSON body rule', () => {
  const guard: AdminGuard = (r, p) => adminGuardOf('127.0.0.1', {})(r, p)
  const post = (headers: Record<string, string>) => guard(req(headers, 'POST'), '/__emulator/clock')

  it('takes JSON and +json bodies, in any case, with parameters', () => {
    for (const type of [
      'application/json',
      'Application/JSON; charset=utf-8',
      ' application/json ;charset=utf-8',
      'application/merge-patch+json',
      'application/vnd.x.y+json; v=1',
    ]) {
      expect(post({ 'content-type': type, 'content-length': '2' }), type).toEqual({ refused: null, headers: {} })
      expect(post({ 'content-type': type, 'transfer-encoding': 'chunked' }), type).toEqual({
        refused: null,
        headers: {},
      })
    }
  })
  it('refuses a body of any other type, or of none, sized or chunked, with 415 naming it', () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      'xapplication/json',
      'application/json-seq',
      'application/a/b+json',
      'application/+json',
      'text/x+json',
      'application/x+jsonx',
      'text/application/x+json',
    ]) {
      for (const length of [{ 'content-length': '2' }, { 'transfer-encoding': 'chunked' }] as Record<
        string,
        string
      >[]) {
        expect(post({ 'content-type': type, ...length }), type).toEqual({
          refused: [415, notJsonMessage(type)],
          headers: {},
        })
      }
    }
    expect(post({ 'content-length': '2' })).toEqual({ refused: [415, notJsonMessage(undefined)], headers: {} })
  })
  it('lets a request without a body through whatever its Content-Type', () => {
    for (const headers of [
      { 'content-type': 'text/plain' },
      { 'content-type': 'text/plain', 'content-length': '0' },
      {},
    ] as Record<string, string>[]) {
      expect(post(headers), JSON.stringify(headers)).toEqual({ refused: null, headers: {} })
    }
  })
})
