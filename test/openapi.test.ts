import { Validator } from '@seriousme/openapi-schema-validator'
import { OpenAPIBackend } from 'openapi-backend'
import { describe, expect, it } from 'vitest'
import { LIMIT_MAX, openApiDocument } from '../src/contract.js'
import { call, NOW_ISO } from './support/api.js'
import { expectMatchesOpenApi } from './support/openapi.js'
import { runCli } from './support/cli.js'
import { createEmulator } from '../src/index.js'

type Operation = {
  operationId: string
  parameters: Array<{ name: string; in: string; schema: Record<string, unknown>; description: string }>
  responses: Record<string, { description: string; content: Record<string, { schema: unknown }> }>
}

const document = openApiDocument()
const operations = Object.fromEntries(
  Object.entries(document.paths).map(([path, item]) => [path, (item as { get: Operation }).get]),
)

describe('the OpenAPI document (`activation-emulator openapi`)', () => {
  it('is a valid OpenAPI 3.1 document, by the OpenAPI schema validator', async () => {
    const result = await new Validator().validate(structuredClone(document) as never)
    expect(result).toEqual({ valid: true })
    // The validator does refuse a broken one: a parameter in the body, which OpenAPI 3 does not have.
    const broken = structuredClone(document) as any
    broken.paths['/activations/list'].get.parameters[0].in = 'body'
    expect((await new Validator().validate(broken)).valid).toBe(false)
  })

  it('has the four GET operations and the Api-Key scheme on all of them', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(Object.keys(operations).sort()).toEqual([
      '/activations/latest',
      '/activations/list',
      '/activations/{id}',
      '/experience/participants',
    ])
    expect(document.security).toEqual([{ ApiKey: [] }])
    expect(document.components.securitySchemes).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'Authorization' },
    })
  })

  it.each([
    ['/activations/list', ['state', 'start_date', 'types[]', 'limit', 'next']],
    [
      '/activations/{id}',
      ['id', 'is_completed', 'is_winner', 'bracket_round', 'bracket_seed', 'start_date', 'limit', 'next'],
    ],
    [
      '/activations/latest',
      ['is_completed', 'is_winner', 'bracket_round', 'bracket_seed', 'start_date', 'limit', 'next', 'types[]'],
    ],
    ['/experience/participants', ['start_date', 'end_date', 'last_updated_since', 'limit', 'next']],
  ])("%s takes exactly the spec's parameters", (path, names) => {
    expect(operations[path]!.parameters.map((p) => p.name)).toEqual(names)
  })

  it.each([
    ['/activations/list', LIMIT_MAX.activations],
    ['/activations/{id}', LIMIT_MAX.entries],
    ['/activations/latest', LIMIT_MAX.entries],
    ['/experience/participants', LIMIT_MAX.participants],
  ] as const)('%s bounds limit at 1..%i, as the emulator does', async (path, max) => {
    const limit = operations[path]!.parameters.find((p) => p.name === 'limit')!
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: max })
    const emulator = await createEmulator({ now: NOW_ISO })
    const key = emulator.accounts[0]!.apiKeys[0]!
    const id = (await call(emulator, '/activations/latest', key)).body.activation.id
    const concrete = path.replace('{id}', id)
    expect((await call(emulator, `${concrete}?limit=${max}`, key)).status).toBe(200)
    expect((await call(emulator, `${concrete}?limit=${max + 1}`, key)).status).toBe(400)
    expect((await call(emulator, `${concrete}?limit=0`, key)).status).toBe(400)
  })

  it('lists every status each operation answers, each with its body', () => {
    const statuses = (path: string) => Object.keys(operations[path]!.responses).sort()
    expect(statuses('/activations/list')).toEqual(['200', '400', '401', '429', '500', 'default'])
    expect(statuses('/activations/{id}')).toEqual(['200', '400', '401', '404', '429', '500', 'default'])
    expect(statuses('/activations/latest')).toEqual(['200', '400', '401', '404', '429', '500', 'default'])
    expect(statuses('/experience/participants')).toEqual(['200', '400', '401', '403', '429', '500', 'default'])
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const ref = status === '200' ? undefined : '#/components/schemas/Error'
        const schema = response.content['application/json']!.schema as { $ref: string }
        if (ref) expect(schema.$ref).toBe(ref)
        else
          expect(schema.$ref).toMatch(
            /^#\/components\/schemas\/(ActivationList|ActivationWithEntries|ParticipantList)$/,
          )
      }
    }
  })

  it("marks the emulator's assumptions in the descriptions", () => {
    const schemas = document.components.schemas as Record<string, { description: string }>
    for (const id of [
      'Extra',
      'Media',
      'Address',
      'Utm',
      'Choice',
      'BracketVote',
      'ScavengerSeat',
      'Prize',
      'SurveyEntry',
    ]) {
      expect(schemas[id]!.description).toContain("Emulator's assumption (not shown by the spec)")
    }
    expect(schemas['Activation']!.description).toContain("Emulator's assumption")
    expect(schemas['GiveawayEntry']!.description).not.toContain("Emulator's assumption")
    expect(operations['/activations/list']!.responses['400']!.description).toContain("Emulator's assumption")
    const limit = operations['/activations/list']!.parameters.find((p) => p.name === 'limit')!
    expect(limit.description).toContain('20 when absent')
    expect(openApiDocument({ defaultLimits: { activations: 7, entries: 1, participants: 1 } }).paths).toSatisfy(
      (paths: unknown) => JSON.stringify(paths).includes('7 when absent'),
    )
    const ordered = (document: ReturnType<typeof openApiDocument>, path: string) =>
      (document.paths[path]!['get'] as { description: string }).description
    expect(ordered(document, '/activations/list')).toContain('ordered by startTime newest first, then id (')
    expect(ordered(document, '/experience/participants')).toContain('ordered by firstEnteredAt oldest first, then id (')
    const reversed = openApiDocument({ order: { activations: 'oldest-first', participants: 'newest-first' } })
    expect(ordered(reversed, '/activations/list')).toContain('ordered by startTime oldest first, then id descending')
    expect(ordered(reversed, '/experience/participants')).toContain(
      'ordered by firstEnteredAt newest first, then id descending',
    )
  })

  it('is the same bytes every time', () => {
    expect(JSON.stringify(openApiDocument())).toBe(JSON.stringify(document))
  })

  it('the response check refuses a body that does not match: a list without next', async () => {
    const request = { method: 'GET', url: 'https://api.activations.test/activations/list' }
    const headers = new Headers({ 'content-type': 'application/json' })
    await expect(
      expectMatchesOpenApi('https://api.activations.test', request, {
        status: 200,
        headers,
        text: '{"activations":[]}',
      }),
    ).rejects.toThrow(/does not match the OpenAPI document \(listActivations\).*next/)
    await expect(
      expectMatchesOpenApi('https://api.activations.test', request, { status: 404, headers, text: '{"message":"x"}' }),
    ).rejects.toThrow(/error/)
    await expectMatchesOpenApi('https://api.activations.test', request, { status: 503, headers, text: '{"error":"x"}' })
  })

  it('is printed by `activation-emulator openapi`, with --server-url as its server (--base-url, its old name, too)', async () => {
    const run = await runCli(['openapi', '--server-url', 'http://127.0.0.1:4010/v1'])
    expect(run.code).toBe(0)
    const printed = JSON.parse(run.stdout)
    expect(printed.servers).toEqual([{ url: 'http://127.0.0.1:4010/v1' }])
    expect(printed.paths).toEqual(JSON.parse(JSON.stringify(document.paths)))
    const old = JSON.parse((await runCli(['openapi', '--base-url', 'http://127.0.0.1:4011'])).stdout)
    expect(old.servers).toEqual([{ url: 'http://127.0.0.1:4011' }])
    const bad = await runCli(['openapi', '--server-url', 'ftp://x'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toBe(
      'activation-emulator: --server-url must be an http(s) URL such as http://127.0.0.1:4010, got "ftp://x"\n',
    )
  })
})

describe('date parameters: the document and the emulator agree on what is a date', () => {
  // The calendar by hand: each month's days, February's 29th in the years divisible by 4 but not by 100, or by 400.
  const isDay = (text: string): boolean => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
    if (!m) return false
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
    const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
    const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]
    return days !== undefined && d >= 1 && d <= days
  }
  const isTime = (text: string): boolean => {
    const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(text)
    return !!m && isDay(m[1]!) && Number(m[2]) <= 23 && Number(m[3]) <= 59 && Number(m[4]) <= 59
  }
  const DAYS = [
    '2026-02-28',
    '2026-02-29',
    '2024-02-29',
    '2000-02-29',
    '1900-02-29',
    '2026-02-30',
    '2026-04-31',
    '2026-06-30',
    '2026-12-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '0000-02-29',
    '2026-1-01',
    '20260101',
    'yesterday',
  ]
  const TIMES = [
    '2026-06-01T00:00:00',
    '2026-06-01T23:59:59',
    '2026-06-01T24:00:00',
    '2026-06-01T12:60:00',
    '2026-06-01T12:00:60',
    '2026-02-30T12:00:00',
    '2024-02-29T12:00:00',
    '2026-06-01T12:00:00Z',
    '2026-06-01T12:00',
    '2026-06-01 12:00:00',
  ]
  const api = new OpenAPIBackend({ definition: openApiDocument() as never, quick: true }).init()

  it.each([
    ['/activations/list', 'start_date', false],
    ['/activations/{id}', 'start_date', true],
    ['/activations/latest', 'start_date', true],
    ['/experience/participants', 'start_date', false],
    ['/experience/participants', 'end_date', false],
    ['/experience/participants', 'last_updated_since', false],
  ] as const)('%s %s (a time too: %s)', async (path, name, timeToo) => {
    const schema = operations[path]!.parameters.find((p) => p.name === name)!.schema
    // The date form is declared as a date; the time form has no JSON Schema format (date-time needs a zone).
    const dateForm = timeToo ? (schema['anyOf'] as Array<Record<string, unknown>>)[0]! : schema
    expect(dateForm['format']).toBe('date')
    const emulator = await createEmulator({ now: NOW_ISO, premium: true })
    const key = emulator.accounts[0]!.apiKeys[0]!
    const id = (await call(emulator, '/activations/latest', key)).body.activation.id
    const validator = await api
    for (const value of [...DAYS, ...TIMES]) {
      const valid = isDay(value) || (timeToo && isTime(value))
      const query = `${name}=${encodeURIComponent(value)}`
      const concrete = path.replace('{id}', id)
      const byDocument = validator.validateRequest({
        method: 'get',
        path: concrete,
        query,
        headers: { authorization: `Api-Key ${key}` },
      } as never).valid
      expect(byDocument, `the document on ${value}`).toBe(valid)
      expect((await call(emulator, `${concrete}?${query}`, key)).status, `the emulator on ${value}`).toBe(
        valid ? 200 : 400,
      )
    }
  })

  it.each([
    ['/activations/list', 'start_date', '2026-02-30', 'start_date: 2026-02-30 is not a date'],
    ['/activations/latest', 'start_date', '2026-04-31', 'start_date: 2026-04-31 is not a date'],
    ['/activations/latest', 'start_date', '2026-02-30T12:00:00', 'start_date: 2026-02-30T12:00:00 is not a date'],
    ['/activations/latest', 'start_date', '2026-06-01T24:00:00', 'start_date: 2026-06-01T24:00:00 is not a time'],
    ['/experience/participants', 'end_date', '2100-02-29', 'end_date: 2100-02-29 is not a date'],
    ['/experience/participants', 'last_updated_since', '2026-13-01', 'last_updated_since: 2026-13-01 is not a date'],
    ['/activations/list', 'start_date', '2026-2-28', 'start_date must be a date as YYYY-MM-DD, got "2026-2-28"'],
  ])('%s answers 400 to %s=%s, saying why', async (path, name, value, message) => {
    const emulator = await createEmulator({ now: NOW_ISO, premium: true })
    const key = emulator.accounts[0]!.apiKeys[0]!
    const answer = await call(emulator, `${path}?${name}=${value}`, key)
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ error: message })
  })
})
