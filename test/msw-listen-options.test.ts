import { describe, expect, it } from 'vitest'
import { listenOptions, mswMajor } from '../src/node/msw-listen-options.js'

describe("msw's option for unhandled requests", () => {
  it('is onUnhandledRequest for msw 2 and onUnhandledFrame for msw 3', () => {
    expect(listenOptions('error', 2)).toEqual({ onUnhandledRequest: 'error' })
    expect(listenOptions('error', 3)).toEqual({ onUnhandledFrame: 'error' })
    expect(listenOptions('bypass', 3)).toEqual({ onUnhandledFrame: 'bypass' })
  })

  it("reads msw's major version from the installed msw's package.json (2 in this repository)", () => {
    expect(mswMajor()).toBe(2)
  })
})
