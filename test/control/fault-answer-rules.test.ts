/**
 * A fault rule's own answer and path, on the functions themselves: which headers the server keeps for
 * itself (by whole name, any case), what `headers` and `body` take, and how a rule's path matches a
 * request's path segment by segment. (The bounds at their limits, in-process and over HTTP, are
 * custom-answer-bounds.test.ts.)
 */
import { describe, expect, it } from 'vitest'
import { answerSchema } from '../../src/emulator/fault-answer.js'
import { pathProblem, PathPattern } from '../../src/emulator/fault-path.js'
import { FaultRules } from '../../src/emulator/fault-rules.js'

/** The problems `answerSchema` finds in `answer`, as `field: message` lines (none: []). */
function problems(answer: unknown): string[] {
  const result = answerSchema.safeParse(answer)
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}
const withHeader = (name: string, value: unknown = 'v') => problems({ status: 502, headers: { [name]: value } })

describe('answerSchema', () => {
  it("refuses each of the server's own headers by its whole name, in any case, saying why", () => {
    for (const name of ['Content-Length', 'transfer-encoding', 'Connection', 'keep-alive', 'TE', 'Trailer', 'Upgrade'])
      expect(withHeader(name)).toEqual([
        `headers.${name}: the server writes ${name} itself (it frames the answer on the connection): leave it out`,
      ])
    expect(withHeader('Content-Encoding')).toEqual([
      'headers.Content-Encoding: the server writes Content-Encoding itself (the body is text sent as it is, never encoded): leave it out',
    ])
    expect(withHeader('Access-Control-Max-Age')).toEqual([
      'headers.Access-Control-Max-Age: the server writes Access-Control-Max-Age itself (the server writes CORS headers as its cors option says): leave it out',
    ])
    expect(withHeader('X-Activation-Emulator-Rule')).toEqual([
      'headers.X-Activation-Emulator-Rule: the server writes X-Activation-Emulator-Rule itself (the emulator uses these names inside): leave it out',
    ])
  })

  it('takes a header whose name only holds or begins with one of them', () => {
    for (const name of [
      'X-Content-Length',
      'Content-Length-Hint',
      'X-TE',
      'TE-Hint',
      'Connection-Id',
      'X-Upgrade',
      'X-Content-Encoding',
      'Content-Encoding-Hint',
      'X-Access-Control-Allow-Origin',
      'My-X-Activation-Emulator-Rule',
    ])
      expect(withHeader(name), name).toEqual([])
  })

  it('refuses headers that are not an object of names and strings', () => {
    for (const headers of [null, ['X-A', 'v'], 'X-A: v', 5])
      expect(problems({ status: 502, headers }), JSON.stringify(headers)).toEqual([
        'headers: must be an object of header names and string values',
      ])
    expect(withHeader('X-A', 5)).toEqual(['headers.X-A: a header value must be a string'])
    expect(withHeader('X-A', null)).toEqual(['headers.X-A: a header value must be a string'])
  })

  it('refuses a field it does not know, and takes status alone', () => {
    expect(problems({ status: 200 })).toEqual([])
    expect(problems({ status: 200, bdy: 'x' })).toHaveLength(1)
    expect(problems({ body: 'x' })).toHaveLength(1)
  })

  it('counts a body of more characters than the bound as too long before encoding it', () => {
    const most = 512 << 10
    expect(problems({ status: 200, body: 'a'.repeat(most) })).toEqual([])
    expect(problems({ status: 200, body: 'a'.repeat(most + 1) })).toEqual([
      `body: at most ${most} bytes (512 KB) of UTF-8, got ${most + 1} characters`,
    ])
  })
})

describe('pathProblem', () => {
  it('takes a path of any number of the API’s segments only when it has as many as one of its paths', () => {
    expect(pathProblem('/activations', 'any')).toMatch(/is none of the API's paths/)
    expect(pathProblem('/activations/list/more', 'any')).toMatch(/is none of the API's paths/)
    expect(pathProblem('/activations/*/more', 'any')).toMatch(/is none of the API's paths/)
    expect(pathProblem('/*/*', 'any')).toBeUndefined()
    expect(pathProblem('/*', 'any')).toMatch(/is none of the API's paths/)
    expect(pathProblem('/experience/participants', 'any')).toBeUndefined()
  })

  it('takes a path that one of its overlapping endpoints agrees with', () => {
    // `/activations/*` is also the list's and the latest's path (their segments are ids to it).
    expect(pathProblem('/activations/*', 'list')).toBeUndefined()
    expect(pathProblem('/activations/*', 'activation')).toBeUndefined()
    expect(pathProblem('/activations/list', 'list')).toBeUndefined()
    expect(pathProblem('/activations/abc', 'activation')).toBeUndefined()
    expect(pathProblem('/activations/abc', 'participants')).toMatch(/is never a request to the endpoint participants/)
  })

  it('wants the path from its first character', () => {
    expect(pathProblem('x/activations/list', 'any')).toMatch(/^a path under the base URL/)
    expect(pathProblem('activations/list', 'any')).toMatch(/^a path under the base URL/)
  })
})

describe('PathPattern', () => {
  const matches = (pattern: string, path: string) => new PathPattern(pattern).matches(path)

  it('matches a path segment by segment, with one trailing slash', () => {
    expect(matches('/activations/list', '/activations/list')).toBe(true)
    expect(matches('/activations/list', '/activations/list/')).toBe(true)
    expect(matches('/activations/list', '/activations/list//')).toBe(false)
    expect(matches('/activations/list', '/activations/lis')).toBe(false)
    expect(matches('/activations/list', '/activations/lists')).toBe(false)
    expect(matches('/activations/list', '/activations/liss')).toBe(false)
    expect(matches('/activations/list', '/activations')).toBe(false)
    expect(matches('/activations/list', '/activations/')).toBe(false)
    expect(matches('/activations/list', '/activations/list/x')).toBe(false)
    expect(matches('/activations/list', 'x/activations/list')).toBe(false)
    expect(matches('/activations/list', '/activationsXlist')).toBe(false)
    expect(matches('/activations/list', '')).toBe(false)
    expect(matches('/activations/list', '/')).toBe(false)
  })

  it('matches `*` to any one non-empty segment', () => {
    expect(matches('/activations/*', '/activations/abc')).toBe(true)
    expect(matches('/activations/*', '/activations/abc/')).toBe(true)
    expect(matches('/activations/*', '/activations/')).toBe(false)
    expect(matches('/activations/*', '/activations//')).toBe(false)
    expect(matches('/activations/*', '/activations')).toBe(false)
    expect(matches('/activations/*', '/activations/a/b')).toBe(false)
    expect(matches('/*/list', '/activations/list')).toBe(true)
    expect(matches('/*/list', '//list')).toBe(false)
  })
})

describe('FaultRules, its bounds', () => {
  it('refuses the 1,001st rule with bad input, and the answers past 2 MB together', () => {
    const rules = new FaultRules(1)
    for (let i = 0; i < 1000; i++) rules.add({ status: 500 })
    expect(() => rules.add({ status: 500 })).toThrow(
      expect.objectContaining({ code: 'bad_input', message: expect.stringMatching(/at most 1000 rules/) }),
    )
    const bytes = new FaultRules(1)
    const body = 'a'.repeat(512 << 10)
    for (let i = 0; i < 4; i++) bytes.add({ answer: { status: 200, body } })
    expect(() => bytes.add({ answer: { status: 200, body: 'a' } })).toThrow(
      expect.objectContaining({ code: 'bad_input', message: expect.stringMatching(/at most 2097152 bytes/) }),
    )
  })
})
