import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { HttpHandler } from 'msw'
import { ADMIN_PREFIX } from '../../handlers/admin/index.js'
import { apiError, errorResponse, jsonResponse, notFound, notJsonMessage } from '../../handlers/errors.js'
import { answerFrom } from '../../handlers/msw-adapter.js'
import { mswRuntime } from '../../handlers/msw-runtime.js'
import { inspectorPage } from '../inspector/page.js'

/**
 * The page's script: `client.js` in `src/inspector/` once built (`../inspector/` from this module in
 * `node/`, `./inspector/` from the package's bundled `index.js`, which this module is part of); from
 * source (tsx, the tests), `client.ts` and the modules it imports bundled by esbuild, a development
 * dependency that is there then, as the build does (package.json's `build`: the same options).
 */
async function clientScript(): Promise<string> {
  for (const built of ['../inspector/client.js', './inspector/client.js']) {
    try {
      return await readFile(new URL(built, import.meta.url), 'utf8')
    } catch {
      // not there
    }
  }
  // Named by a variable, so that the package's bundle does not take esbuild in: it never gets here.
  const bundler = 'esbuild'
  const { build } = (await import(bundler)) as typeof import('esbuild')
  const { outputFiles } = await build({
    entryPoints: [fileURLToPath(new URL('../inspector/client.ts', import.meta.url))],
    alias: { zod: fileURLToPath(new URL('../inspector/no-zod.ts', import.meta.url)) },
    logOverride: { 'import-is-undefined': 'error' },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
  return outputFiles[0]!.text
}

/** Where the page asks the admin API through `answered` (`POST /__emulator/inspector/answer`). */
const ANSWER_PATH = '/inspector/answer'

/**
 * The admin API's answer to `{ method, path, body }` (a path under `/__emulator`), always as a 200
 * `{ status, body }`. The page asks through it because a browser writes a red "Failed to load
 * resource" in its console for every response of 400 or more it fetches, and the page's 4xx are
 * ordinary: an unknown activation's 404, participants' 403 without premium, a filter's or a rule's 400.
 * The admin request carries the page's headers (its Authorization: the admin token) and JSON body;
 * the live streams (`/requests/stream`, a sandbox's `/sandboxes/<id>/requests/stream`), which never end,
 * are read directly. Takes only `application/json`, so that no other site's form can post to it.
 */
async function answered(request: Request, origin: string, admin: HttpHandler[]): Promise<Response> {
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? ''))
    return errorResponse(apiError(415, notJsonMessage(request.headers.get('content-type'))))
  let asked: { method?: unknown; path?: unknown; body?: unknown }
  try {
    asked = (await request.json()) as typeof asked
  } catch {
    asked = {}
  }
  const { method, path, body } = asked ?? {}
  if (typeof method !== 'string' || !/^(GET|POST|PATCH|DELETE)$/.test(method))
    return errorResponse(apiError(400, 'method must be GET, POST, PATCH or DELETE'))
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//'))
    return errorResponse(apiError(400, 'path must be an admin path such as /faults'))
  // The page's own headers (its Authorization, its Origin), as if it had asked the admin API itself.
  const headers = new Headers(request.headers)
  headers.delete('content-length')
  const inner = new Request(`${origin}${ADMIN_PREFIX}${path}`, {
    method,
    headers,
    ...(body === undefined || method === 'GET' ? {} : { body: JSON.stringify(body) }),
  })
  // Decided on the path the admin API is asked, its dot segments resolved (`/./requests/stream`), in any
  // case, as msw matches it; and then on the answer itself: a stream, never ending, is refused however
  // its path was spelled, and cancelled, which ends its journal subscription.
  const innerPath = new URL(inner.url).pathname
  const pathname = innerPath.startsWith(`${ADMIN_PREFIX}/`) ? innerPath.slice(ADMIN_PREFIX.length) : innerPath
  const refused = () =>
    errorResponse(apiError(400, `path ${JSON.stringify(pathname)} is not asked through ${ANSWER_PATH}`))
  if (/^(\/sandboxes\/[^/]+)?\/requests\/stream\/?$/i.test(pathname) || /^\/inspector(\/|$)/i.test(pathname))
    return refused()
  const response = (await answerFrom(admin, inner)) ?? errorResponse(notFound(pathname, 'admin endpoint'))
  if (/^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '')) {
    await response.body?.cancel()
    return refused()
  }
  // The admin API answers JSON, written into the answer as it is; anything else, as a string.
  const text = await response.text()
  const json = /\bjson\b/.test(response.headers.get('content-type') ?? '') && text.trim() !== ''
  const answer = json ? text : JSON.stringify(text === '' ? null : text)
  return jsonResponse(200, `{"status":${response.status},"body":${answer}}`, { 'cache-control': 'no-store' })
}

/**
 * The inspector: a page at `/__emulator/` (at the origin of `baseUrl`) that shows the emulator's world
 * and steers it through the admin API (`admin`, the emulator's `adminHandlers`), and its one script.
 * Served by `serve()` with the admin API.
 * @example const handlers = [...(await inspectorHandlers(emulator.baseUrl, emulator.adminHandlers)), ...emulator.adminHandlers]
 */
export async function inspectorHandlers(baseUrl: string, admin: HttpHandler[]): Promise<HttpHandler[]> {
  const origin = new URL(baseUrl).origin
  const root = `${origin}${ADMIN_PREFIX}`
  const html = inspectorPage(new URL(baseUrl).pathname.replace(/\/+$/, ''))
  const script = await clientScript()
  const noStore = { 'cache-control': 'no-store' }
  const { http } = mswRuntime()
  return [
    // One handler for both: msw's path patterns do not tell `/__emulator` from `/__emulator/`.
    http.get(
      ({ request }) => request.url === root || request.url === `${root}/`,
      ({ request }) =>
        request.url === root
          ? new Response(null, { status: 308, headers: { location: `${ADMIN_PREFIX}/` } })
          : new Response(html, { headers: { 'content-type': 'text/html', ...noStore } }),
    ),
    http.post(`${root}${ANSWER_PATH}`, ({ request }) => answered(request, origin, admin)),
    http.get(
      `${root}/client.js`,
      () => new Response(script, { headers: { 'content-type': 'text/javascript; charset=utf-8', ...noStore } }),
    ),
  ]
}
