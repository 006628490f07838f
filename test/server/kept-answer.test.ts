import { describe, expect, it } from 'vitest'
import { responseWithBody } from '../../handlers/body-bytes.js'
import { PlainRequest } from '../../handlers/plain-request.js'

// A server's PlainRequest is answered with a status-only Response and its headers and bytes kept on
// the request: a 200 makes no Response of its own (one serves every page), and what was kept goes
// with that answer only, not with one that replaced it on the way out.

const url = new URL('https://api.example.test/v1/activations/list')
const JSON_ONLY = { 'content-type': 'application/json' }

describe('an answer kept on a PlainRequest', () => {
  it('is one status-only Response for every 200, each request keeping its own headers and bytes', () => {
    const first = new PlainRequest('GET', url, ['Authorization', 'Api-Key demo-key'])
    const second = new PlainRequest('GET', url, ['Authorization', 'Api-Key demo-key'])
    const a = responseWithBody(first, 200, JSON_ONLY, new Uint8Array([1]))
    const b = responseWithBody(second, 200, { ...JSON_ONLY, 'x-ratelimit-limit': '5' }, new Uint8Array([2]))
    expect(b).toBe(a)
    expect(a.status).toBe(200)
    expect(a.body).toBeNull()
    expect(first.keptWith(a)).toEqual({ headers: JSON_ONLY, body: new Uint8Array([1]) })
    expect(second.keptWith(b)).toEqual({ headers: { ...JSON_ONLY, 'x-ratelimit-limit': '5' }, body: new Uint8Array([2]) })
  })

  it('goes with its own answer only: one that replaced it (a sandbox ended meanwhile) sends what it has', () => {
    const request = new PlainRequest('GET', url, [])
    const kept = responseWithBody(request, 200, JSON_ONLY, new Uint8Array([1]))
    expect(request.keptWith(kept)).toBeDefined()
    expect(request.keptWith(new Response('{"error":"Sandbox not found"}', { status: 404 }))).toBeUndefined()
  })

  it('keeps another status with a Response of that status', () => {
    const request = new PlainRequest('GET', url, [])
    const response = responseWithBody(request, 203, JSON_ONLY, new Uint8Array([3]))
    expect(response.status).toBe(203)
    expect(request.keptWith(response)?.body).toEqual(new Uint8Array([3]))
  })
})
