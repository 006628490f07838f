import type { HttpHandler } from 'msw'

/** The admin API's check of an Authorization header: the 401's message, or null when it may pass (always, without a token). */
export type TokenRefusal = (authorization: string | null | undefined) => string | null

/**
 * The check of an admin token: none without a token; with one, `Authorization: Bearer <token>` or a 401's message.
 * @example tokenRefusal('s3cret')('Bearer s3cret') // null
 */
export function tokenRefusal(token: string | undefined): TokenRefusal {
  if (token === undefined) return () => null
  return (header) =>
    header === null || header === undefined
      ? 'Missing Authorization header: the admin API needs Authorization: Bearer <admin token>'
      : header === `Bearer ${token}`
        ? null
        : 'Wrong admin token: send Authorization: Bearer <admin token>'
}

/**
 * The admin API's handlers (an array, as any list of msw handlers), with the token check they make:
 * a server refuses a request with it before reading the request's body. Its `map`, `filter` and
 * `slice` give plain arrays, which hold no check.
 */
export class AdminHandlers extends Array<HttpHandler> {
  static override get [Symbol.species](): ArrayConstructor {
    return Array
  }

  readonly #refusal: TokenRefusal

  constructor(refusal: TokenRefusal, handlers: readonly HttpHandler[]) {
    super()
    this.push(...handlers)
    this.#refusal = refusal
  }

  /**
   * The token check of admin handlers made by `createAdminHandlers`, the same the handlers make (for
   * any other list, which checks nothing, a check that lets every request pass).
   * @example const refused = AdminHandlers.tokenCheckOf(emulator.adminHandlers)(req.headers.authorization)
   */
  static tokenCheckOf(handlers: readonly HttpHandler[]): TokenRefusal {
    return handlers instanceof AdminHandlers ? handlers.#refusal : () => null
  }
}
