import type { HandlerContext } from '../../handlers/index.js'

// The variants of an emulator's handler context: the same emulator with a few members changed. Each
// is a prototype link to the emulator's own context (Object.create) rather than a copy, so that its
// getters stay live (a sandbox's store index is made when first read) and nothing is copied.

/** The path of a base URL, without a trailing slash: what the handlers match requests against. */
export function basePathOf(baseUrl: string): string {
  return new URL(baseUrl).pathname.replace(/\/+$/, '')
}

/** The emulator's endpoints at another base URL: a sandbox's at its host's, where requests with its keys reach it. */
export function contextAt(ctx: HandlerContext, baseUrl: string): HandlerContext {
  return Object.create(ctx, {
    baseUrl: { value: baseUrl },
    basePath: { value: basePathOf(baseUrl) },
  }) as HandlerContext
}

/** Every request allowed, with its limit left whole. */
const unlimited = {
  take: (_key: string, limit: { limit: number }) => ({
    allowed: true,
    limit: limit.limit,
    remaining: limit.limit,
    resetInMs: 0,
  }),
}

/** What the admin API's `view` asks: the same endpoints, never journaled, rate-limited or faulted. */
export function quietContext(ctx: HandlerContext): HandlerContext {
  return Object.create(ctx, {
    rateLimiter: { value: unlimited },
    delayFor: { value: () => null },
    faultFor: { value: () => null },
    record: { value: () => {} },
  }) as HandlerContext
}
