import { getResponse, http, passthrough } from 'msw'
import { describe, expect, it } from 'vitest'
import { createEmulator, defineScenario, serve } from '../../src/index.js'
import type { StoredEntry, StoredParticipant } from '../../src/contract/stored-records.js'
import { expectError, NOW_ISO, useEmulator } from '../support/api.js'

// Activations whose ids are the fixed words of the paths, in other cases.
const pathWords = defineScenario({
  name: 'path-words',
  description: 'Activations whose ids look like the words of the paths',
  seed: 11,
  accounts: [
    {
      name: 'words',
      apiKeys: ['words-key'],
      people: 60,
      activations: [
        { key: 'list', id: 'LIST', type: 'form', state: 'running', entries: 4 },
        { key: 'latest', id: 'Latest', type: 'map', state: 'running', entries: 3 },
        { key: 'other', type: 'trivia', state: 'ended', entries: 10 },
      ],
    },
  ],
})

const api = useEmulator({ scenario: pathWords })
const ids = (items: Array<{ id: string }>) => items.map((item) => item.id)

describe('paths match case-sensitively', () => {
  it.each(['LIST', 'Latest'])('answers the activation whose id is %s at its path', async (id) => {
    const answer = await api.get(`/activations/${id}`)
    expect(answer.status).toBe(200)
    expect(answer.body.activation.id).toBe(id)
    const entries = (api.emulator.db.materialize().entries.all() as StoredEntry[]).filter((e) => e.activationId === id)
    expect(ids(answer.body.entries)).toEqual(ids(entries))
  })

  it('still answers the list and the latest at their own paths', async () => {
    expect(Object.keys((await api.get('/activations/list')).body)).toEqual(['activations', 'next'])
    const latest = await api.get('/activations/latest')
    expect(latest.status).toBe(200)
    expect(['LIST', 'Latest']).toContain(latest.body.activation.id)
  })

  it.each([
    '/ACTIVATIONS/LIST',
    '/Activations/list',
    '/activations/List/x',
    '/Activations/LIST',
    '/ACTIVATIONS/latest',
    '/Experience/participants',
    '/experience/PARTICIPANTS',
  ])('answers 404 to %s', async (path) => {
    expectError(await api.get(path), 404, `Not found: no endpoint at ${path}`)
  })

  it('answers 404 for an id that differs from an activation only by case', async () => {
    expectError(await api.get('/activations/List'), 404, /^Activation not found/)
    expectError(await api.get('/activations/LATEST'), 404, 'Activation not found: no activation has the id "LATEST"')
  })

  it('decodes an id: /activations/%4CIST is LIST, and the list path may be percent-encoded too', async () => {
    expect((await api.get('/activations/%4CIST')).body.activation.id).toBe('LIST')
    expect(Object.keys((await api.get('/activations/lis%74')).body)).toEqual(['activations', 'next'])
  })

  it('matches the base path case-sensitively: /V1 is outside a base URL ending in /v1', async () => {
    const emulator = await createEmulator({ scenario: pathWords, now: NOW_ISO, baseUrl: 'https://cased.test/v1' })
    const headers = { authorization: 'Api-Key words-key' }
    const at = (path: string) => getResponse(emulator.handlers, new Request(`https://cased.test${path}`, { headers }))
    expect((await at('/v1/activations/list'))?.status).toBe(200)
    expect(await at('/V1/activations/list')).toBeUndefined()
    expect(await at('/v1x/activations/list')).toBeUndefined()
    expect((await at('/v1/ACTIVATIONS/LIST'))?.status).toBe(404)
  })
})

describe('paths with broken percent-encoding', () => {
  it.each([
    ['/activations/%zz', '"%zz" is not a % followed by two hex digits'],
    ['/activations/%', '"%" is not a % followed by two hex digits'],
    ['/activations/abc%4', '"%4" is not a % followed by two hex digits'],
    ['/activations/%E2%82', '"%E2%82" is not UTF-8'],
    ['/activations/%FF/x', '"%FF" is not UTF-8'],
    ['/nope/%zz', '"%zz" is not a % followed by two hex digits'],
    ['/%C0%AF', '"%C0%AF" is not UTF-8'],
  ])('answers 400 to %s, saying what is wrong with the path', async (path, problem) => {
    expectError(await api.get(path), 400, `Malformed path: ${path} is not valid percent-encoding: ${problem}`)
  })

  it('answers it before the method and the key, and HEAD with the status and no body', async () => {
    expectError(await api.get('/activations/%zz', { method: 'POST', key: null }), 400, /^Malformed path/)
    const head = await api.get('/activations/%zz', { method: 'HEAD' })
    expect(head.status).toBe(400)
    expect(head.headers.get('content-type')).toBe('application/json')
    expect(head.text).toBe('')
  })

  it('answers the same straight through getResponse, without a server', async () => {
    const { emulator } = api
    const response = await getResponse(
      emulator.handlers,
      new Request(`${emulator.baseUrl}/activations/%zz`, { headers: { authorization: 'Api-Key words-key' } }),
    )
    expect(response?.status).toBe(400)
    expect(await response?.json()).toEqual({
      error:
        'Malformed path: /activations/%zz is not valid percent-encoding: "%zz" is not a % followed by two hex digits',
    })
  })
})

describe('dates of the years 0000 to 0099', () => {
  const participants = () => api.emulator.db.materialize().participants.all() as StoredParticipant[]

  it('reads start_date=0061-12-25 as the year 61 on the activations list: nothing starts that day', async () => {
    const answer = await api.get('/activations/list?start_date=0061-12-25')
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ activations: [], next: null })
  })

  it('reads start_date and end_date of the participants as the years 0 to 99', async () => {
    const all = await api.get('/experience/participants?limit=100')
    const since = await api.get('/experience/participants?start_date=0061-12-25&limit=100')
    expect(since.status).toBe(200)
    expect(ids(since.body.participants)).toEqual(ids(all.body.participants))
    expect(since.body.participants.length).toBe(participants().length)
    for (const query of ['end_date=0099-12-31', 'start_date=0000-01-01&end_date=0000-02-29']) {
      expect((await api.get(`/experience/participants?${query}`)).body).toEqual({ participants: [], next: null })
    }
    expect((await api.get('/experience/participants?last_updated_since=0001-01-01')).status).toBe(200)
  })

  it('reads an entry start_date as YYYY-MM-DDTHH:mm:ss in the year 61', async () => {
    for (const since of ['0061-12-25T10:30:00', '0000-02-29', '0099-12-31T23:59:59']) {
      const answer = await api.get(`/activations/LIST?start_date=${since}`)
      expect(answer.status, since).toBe(200)
      expect(answer.body.entries).toHaveLength(4)
    }
  })

  it.each(['0001-02-29', '0099-02-29', '0061-13-01', '0061-12-32', '0061-12-25T24:00:00'])(
    'refuses %s, which is no date',
    async (value) => {
      const what = value.includes('T') ? 'time' : 'date'
      expectError(await api.get(`/activations/LIST?start_date=${value}`), 400, `start_date: ${value} is not a ${what}`)
    },
  )
})

describe('over HTTP, through the standalone server', () => {
  it('answers the same statuses and bodies, HEAD without a body', async () => {
    const server = await serve(api.emulator, { port: 0 })
    // This file's msw server intercepts fetch: let the requests to the real server through (with a
    // predicate: a string path would throw on %zz in msw, which is what the emulator's handlers avoid).
    api.server.use(
      http.all(
        ({ request }) => request.url.startsWith(`${server.url}/`),
        () => passthrough(),
      ),
    )
    try {
      const headers = { authorization: 'Api-Key words-key' }
      const malformed = await fetch(`${server.url}/activations/%zz`, { headers })
      expect(malformed.status).toBe(400)
      expect(malformed.headers.get('content-type')).toBe('application/json')
      expect(await malformed.json()).toEqual({
        error:
          'Malformed path: /activations/%zz is not valid percent-encoding: "%zz" is not a % followed by two hex digits',
      })
      const head = await fetch(`${server.url}/activations/%zz`, { method: 'HEAD', headers })
      expect(head.status).toBe(400)
      expect(await head.text()).toBe('')
      expect((await fetch(`${server.url}/ACTIVATIONS/LIST`, { headers })).status).toBe(404)
      expect((await (await fetch(`${server.url}/activations/LIST`, { headers })).json()).activation.id).toBe('LIST')
      const old = await fetch(`${server.url}/experience/participants?end_date=0061-12-25`, { headers })
      expect(await old.json()).toEqual({ participants: [], next: null })
    } finally {
      await server.close()
    }
  })
})
