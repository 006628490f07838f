import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { LIMIT_MAX, openApiDocument } from '../src/index.js'
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

  it('is printed by `activation-emulator openapi`, with --base-url as its server', async () => {
    const run = await runCli(['openapi', '--base-url', 'http://127.0.0.1:4010/v1'])
    expect(run.code).toBe(0)
    const printed = JSON.parse(run.stdout)
    expect(printed.servers).toEqual([{ url: 'http://127.0.0.1:4010/v1' }])
    expect(printed.paths).toEqual(JSON.parse(JSON.stringify(document.paths)))
    const bad = await runCli(['openapi', '--base-url', 'ftp://x'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toBe(
      'activation-emulator: --base-url must be an http(s) URL such as http://127.0.0.1:4010, got "ftp://x"\n',
    )
  })
})
