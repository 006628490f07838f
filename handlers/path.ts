import { PlainRequest, type ApiRequest } from './plain-request.js'

/** A path's parameters, decoded: `{ id: 'LIST' }` for `/activations/LIST` on `/activations/:id`. */
export type PathParams = Record<string, string>

/** Which requests a handler answers: their path's parameters, or null for a request it does not match. */
export type RequestMatcher = (request: ApiRequest) => PathParams | null

/**
 * The last request whose URL was parsed, and that URL. Shared by every emulator in the process, and
 * safe: it is keyed by the Request object itself, whose URL cannot change, so it can only ever give a
 * request its own URL, whichever emulator's handler asks (and one request tried against the handlers
 * of two emulators, in one setupServer, is parsed once). It keeps one Request alive, no more. Kept
 * here rather than on the handler context: its readers also include the server's choice of handlers
 * and the admin handlers, which would each need a context passed in for no gain in safety or speed.
 */
let lastRequest: ApiRequest | null = null
let lastUrl: URL | null = null

/**
 * A request's URL, parsed once however many handlers' matchers and the answering handler read it (a
 * PlainRequest's, parsed by its server):
 * they read it one after the other, so the last request's URL is kept (one entry rather than a
 * WeakMap, whose entries cost the garbage collector on every request). Read it, never change it.
 * @example urlOf(request).searchParams
 */
export function urlOf(request: ApiRequest): URL {
  if (request instanceof PlainRequest) return request.parsedUrl
  if (request !== lastRequest || lastUrl === null) {
    lastUrl = new URL(request.url)
    lastRequest = request
  }
  return lastUrl
}

/** Where a request's path stands against the base URL. */
type Place =
  /** Not under the base URL (another origin, or another path, compared case-sensitively). */
  | { under: false }
  /** Under it: the path after the base, split into decoded segments; null when a segment cannot be decoded. */
  | { under: true; segments: string[] | null }

/**
 * Where requests stand against the base URL. msw matches a string path with path-to-regexp,
 * case-insensitively and decoding parameters with `decodeURIComponent`, which throws on broken
 * percent-encoding before any resolver runs; the handlers match with this instead: case-sensitively
 * (the base path too), and a path that does not decode is answered, not thrown. As with
 * path-to-regexp, one trailing slash is allowed.
 * @example splitUnderBase('https://api.example.test/v1')(new URL('https://api.example.test/v1/activations/LIST'))
 */
export function splitUnderBase(baseUrl: string): (url: URL) => Place {
  const base = new URL(baseUrl)
  const basePath = base.pathname.replace(/\/+$/, '')
  return (url) => {
    if (url.origin !== base.origin || !url.pathname.startsWith(basePath)) return { under: false }
    let rest = url.pathname.slice(basePath.length)
    if (rest !== '' && !rest.startsWith('/')) return { under: false }
    if (rest.length > 1 && rest.endsWith('/')) rest = rest.slice(0, -1)
    const segments: string[] = []
    for (const segment of rest.split('/').slice(1)) {
      try {
        segments.push(decodeURIComponent(segment))
      } catch {
        return { under: true, segments: null }
      }
    }
    return { under: true, segments }
  }
}

/**
 * The matcher of `pattern` under the base URL: its fixed segments matched case-sensitively (ids are
 * case-sensitive, so `/activations/LIST` is an activation, not the list), `:name` segments taken as
 * decoded parameters; null for a request it does not match. A path with broken percent-encoding
 * matches no pattern.
 * @example new EndpointHandler(pathMatcher('https://api.example.test/v1', '/activations/:id'), answer)
 */
export function pathMatcher(baseUrl: string, pattern: string): RequestMatcher {
  const parts = pattern.split('/').slice(1)
  const placeOf = splitUnderBase(baseUrl)
  // A pattern without parameters, asked of a path without escapes (whose segments decode to
  // themselves), matches that one path under the base, with or without one trailing slash: compared
  // whole, without splitting it.
  const fixed = parts.some((part) => part.startsWith(':'))
    ? null
    : `${new URL(baseUrl).pathname.replace(/\/+$/, '')}${pattern}`
  const origin = new URL(baseUrl).origin
  return (request) => {
    const url = urlOf(request)
    const pathname = url.pathname
    if (fixed !== null && !pathname.includes('%')) {
      const matches =
        pathname.length === fixed.length
          ? pathname === fixed
          : pathname.length === fixed.length + 1 && pathname.endsWith('/') && pathname.startsWith(fixed)
      return matches && url.origin === origin ? {} : null
    }
    const place = placeOf(url)
    if (!place.under || !place.segments || place.segments.length !== parts.length) return null
    const params: PathParams = {}
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!
      const segment = place.segments[i]!
      if (part.startsWith(':') && segment !== '') params[part.slice(1)] = segment
      else if (part !== segment) return null
    }
    return params
  }
}

/**
 * What is wrong with the percent-encoding of a path that does not decode, for a 400's message.
 * @example encodingProblem('/activations/%zz') // '"%zz" is not a % followed by two hex digits'
 */
export function encodingProblem(pathname: string): string {
  const bad = /%(?![0-9a-fA-F]{2})/.exec(pathname)
  if (bad) return `${JSON.stringify(pathname.slice(bad.index, bad.index + 3))} is not a % followed by two hex digits`
  const escapes = /(?:%[0-9a-fA-F]{2})+/g
  for (const run of pathname.matchAll(escapes)) {
    try {
      decodeURIComponent(run[0])
    } catch {
      return `${JSON.stringify(run[0].length > 30 ? `${run[0].slice(0, 30)}…` : run[0])} is not UTF-8`
    }
  }
  return 'it does not decode'
}
