import type { paths } from './paths.js'

/** A path of the API: each answers a page, whose `next` names the page after it (null on the last). */
export type ApiPath = keyof paths

/** The body of a path's 200 answer: a page. */
export type PageOf<P extends ApiPath> = paths[P]['get']['responses'][200]['content']['application/json']

/** A path's parameters, as openapi-fetch takes them: `path` (when the path has some) and `query`. */
export type ParamsOf<P extends ApiPath> = paths[P]['get']['parameters']

/**
 * Any fetch: the global one (in-process, when msw serves the emulator, or over HTTP), a test's own,
 * undici's. Only what `pages()` uses of it is asked.
 */
export type FetchLike = (
  url: string,
  init: { headers: Record<string, string> },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>

/** Where the API is, the key to ask it with, and the path's parameters (required when the path has `{id}`). */
export type PagesOptions<P extends ApiPath> = { baseUrl: string; apiKey: string } & (object extends ParamsOf<P>
  ? { params?: ParamsOf<P> }
  : { params: ParamsOf<P> })

type LooseParams = { path?: Record<string, string>; query?: Record<string, unknown> }

/** The URL of one page: the path's `{name}`s filled in, the query's values (arrays repeated, null and undefined left out). */
function pageUrl(baseUrl: string, path: string, params: LooseParams, next: string | null): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params.path?.[name]
    if (value === undefined) throw new Error(`pages(): ${path} needs params.path.${name}`)
    return encodeURIComponent(value)
  })
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries({ ...params.query, next })) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined && one !== null) query.append(name, String(one))
    }
  }
  const search = query.toString()
  return `${baseUrl.replace(/\/$/, '')}${filled}${search ? `?${search}` : ''}`
}

/**
 * Every page of a list, in order, following `next` until it is null: one request a page, made when
 * the loop asks for the page. A non-2xx answer throws, with its status and the `{error}` it gave; so
 * does a `next` given before in the same walk (a cycle: the walk would never end).
 * @example
 * for await (const page of pages(fetch, '/activations/{id}', { baseUrl, apiKey, params: { path: { id }, query: { limit: 100 } } })) {
 *   for (const entry of page.entries) console.log(entry.email)
 * }
 */
export async function* pages<P extends ApiPath>(
  fetch: FetchLike,
  path: P,
  options: PagesOptions<P>,
): AsyncGenerator<PageOf<P>, void, undefined> {
  const params = ((options as { params?: LooseParams }).params ?? {}) as LooseParams
  const headers = { Authorization: `Api-Key ${options.apiKey}` }
  let next = typeof params.query?.['next'] === 'string' ? params.query['next'] : null
  // Every cursor of this walk: a list's cursors name pages after each other, and never repeat.
  const seen = new Set<string | null>([next])
  do {
    const url = pageUrl(options.baseUrl, path, params, next)
    const response = await fetch(url, { headers })
    const body = (await response.json().catch(() => {
      throw new Error(`GET ${url} answered ${response.status}, not JSON`)
    })) as { next?: unknown; error?: unknown }
    if (!response.ok) {
      const said = typeof body.error === 'string' ? body.error : JSON.stringify(body)
      throw new Error(`GET ${url} answered ${response.status}: ${said}`)
    }
    yield body as PageOf<P>
    const after = typeof body.next === 'string' ? body.next : null
    if (after !== null && seen.has(after)) {
      throw new Error(
        `GET ${url} answered a next that an earlier page of this walk gave: a cycle, which would never end`,
      )
    }
    seen.add(after)
    next = after
  } while (next !== null)
}
