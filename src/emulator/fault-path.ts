import type { EndpointName } from '../../handlers/index.js'
import { ENDPOINT_NAMES } from '../../handlers/route.js'

/** The most characters of a rule's `path`: several times the API's longest path with an id in it. */
const MAX_RULE_PATH_CHARS = 512

/** A path's segments: `*` (null) matches any one non-empty segment, any other is matched exactly. */
type Segments = ReadonlyArray<string | null>

const segmentsOf = (path: string): Segments =>
  path
    .split('/')
    .slice(1)
    .map((s) => (s === '*' ? null : s))

/** The API's paths under the base URL, with the endpoint each is; an id's segment (`:id`) is `*`. */
const API_PATHS: ReadonlyArray<[string, Segments, EndpointName]> = Object.entries(ENDPOINT_NAMES).map(
  ([pattern, name]) => {
    const path = pattern.replace(/:\w+/g, '*')
    return [path, segmentsOf(path), name]
  },
)

/** Whether two paths' segments can match one request's path. */
const overlap = (a: Segments, b: Segments) =>
  a.length === b.length && a.every((s, i) => s === null || b[i] === null || s === b[i])

/**
 * What is wrong with a rule's `path` as given (with its `endpoint`, when not `any`); undefined when
 * nothing is. It must be a path of the API under the base URL, as sent, without a query.
 */
export function pathProblem(path: string, endpoint: EndpointName | 'any'): string | undefined {
  if (path.length > MAX_RULE_PATH_CHARS) return `at most ${MAX_RULE_PATH_CHARS} characters, got ${path.length}`
  if (/[?#]/.test(path)) return 'the path alone: a rule matches no query (leave out ?...)'
  if (!/^(\/[^/\s*]+|\/\*)+$/.test(path))
    return 'a path under the base URL, from /, each segment either * (any one segment) or without * or spaces'
  const segments = segmentsOf(path)
  const api = API_PATHS.filter(([, of]) => overlap(segments, of))
  if (api.length === 0)
    return `${JSON.stringify(path)} is none of the API's paths under the base URL: ${API_PATHS.map(([p]) => p).join(', ')}`
  if (endpoint !== 'any' && !api.some(([, , name]) => name === endpoint)) {
    const [own] = API_PATHS.find(([, , name]) => name === endpoint)!
    return `${JSON.stringify(path)} is never a request to the endpoint ${endpoint} (${own}): give either, or both that agree`
  }
  return undefined
}

/**
 * A rule's `path`, checked by `pathProblem`, as it matches a request's path under the base URL as
 * sent (percent-encoding and all, the journal's `path`): segment by segment, `*` for any one
 * non-empty segment; one trailing slash is allowed, as the endpoints allow it.
 * @example new PathPattern('/activations/*').matches('/activations/abc') // true
 */
export class PathPattern {
  readonly #segments: Segments

  constructor(readonly path: string) {
    this.#segments = segmentsOf(path)
  }

  /** Whether `path` (a request's, under the base URL, without its query) matches: read in place, nothing allocated. */
  matches(path: string): boolean {
    let end = path.length
    if (end > 1 && path.charCodeAt(end - 1) === 47) end--
    let at = 0
    for (const segment of this.#segments) {
      if (at >= end || path.charCodeAt(at) !== 47) return false
      const start = at + 1
      let stop = path.indexOf('/', start)
      if (stop === -1 || stop > end) stop = end
      if (segment === null ? stop === start : stop - start !== segment.length || !path.startsWith(segment, start))
        return false
      at = stop
    }
    return at === end
  }
}
