// A handler's path, as the matcher reads it: a fixed path (no parameters) is compared whole when it has
// no escapes, and must match exactly the requests it matches when its segments are split and decoded.
import { describe, expect, it } from 'vitest'
import { pathMatcher } from '../handlers/path.js'

const matches = (base: string, pattern: string, url: string) => pathMatcher(base, pattern)(new Request(url))

describe('pathMatcher, a path without parameters', () => {
  for (const base of ['https://api.example.test/v1', 'https://api.example.test/v1/', 'https://api.example.test']) {
    const root = base.replace(/\/$/, '')
    it(`matches the path under ${base}, with one trailing slash or an escape that decodes to it`, () => {
      for (const url of [`${root}/activations/list`, `${root}/activations/list/`, `${root}/activations/%6Cist`])
        expect(matches(base, '/activations/list', `${url}?limit=5`), url).toEqual({})
    })

    it(`matches no other path under ${base}, nor the path at another origin`, () => {
      for (const url of [
        `${root}/activations/list//`,
        `${root}/activations/lis`,
        `${root}/activations/lists`,
        `${root}/activations/listt/`,
        `${root}/Activations/list`,
        `${root}/activations/list/x`,
        `${root}/activations/%zz`,
        `${root}x/activations/list`,
        `https://elsewhere.test${new URL(root).pathname.replace(/\/$/, '')}/activations/list`,
        `http://api.example.test${new URL(root).pathname.replace(/\/$/, '')}/activations/list`,
      ])
        expect(matches(base, '/activations/list', url), url).toBeNull()
    })
  }

  it('takes the parameters of a path that has them', () => {
    expect(
      matches('https://api.example.test/v1', '/activations/:id', 'https://api.example.test/v1/activations/a%20b/'),
    ).toEqual({ id: 'a b' })
    expect(
      matches('https://api.example.test/v1', '/activations/:id', 'https://api.example.test/v1/activations/'),
    ).toBeNull()
  })
})
