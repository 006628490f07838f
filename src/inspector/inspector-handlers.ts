import { readFile } from 'node:fs/promises'
import { http, HttpResponse, type HttpHandler } from 'msw'
import { ADMIN_PREFIX } from '../../handlers/admin.js'
import { inspectorPage } from './page.js'

/**
 * The page's script: `client.js` beside this module once built (in `inspector/` beside the package's
 * bundled `index.js`, which this module is part of); from source (tsx, the tests), its `client.ts`
 * stripped of types by TypeScript, a development dependency that is there then.
 */
async function clientScript(): Promise<string> {
  for (const built of ['./client.js', './inspector/client.js']) {
    try {
      return await readFile(new URL(built, import.meta.url), 'utf8')
    } catch {
      // not there
    }
  }
  const ts = (await import('typescript')).default
  const source = await readFile(new URL('./client.ts', import.meta.url), 'utf8')
  return ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText
}

/**
 * The inspector: a page at `/__emulator/` (at the origin of `baseUrl`) that shows the emulator's world
 * and steers it through the admin API, and its one script. Served by `serve()` with the admin API.
 * @example const handlers = [...(await inspectorHandlers(emulator.baseUrl)), ...emulator.adminHandlers]
 */
export async function inspectorHandlers(baseUrl: string): Promise<HttpHandler[]> {
  const root = `${new URL(baseUrl).origin}${ADMIN_PREFIX}`
  const html = inspectorPage(new URL(baseUrl).pathname.replace(/\/+$/, ''))
  const script = await clientScript()
  const noStore = { 'cache-control': 'no-store' }
  return [
    // One handler for both: msw's path patterns do not tell `/__emulator` from `/__emulator/`.
    http.get(
      ({ request }) => request.url === root || request.url === `${root}/`,
      ({ request }) =>
        request.url === root
          ? new HttpResponse(null, { status: 308, headers: { location: `${ADMIN_PREFIX}/` } })
          : HttpResponse.html(html, { headers: noStore }),
    ),
    http.get(
      `${root}/client.js`,
      () => new HttpResponse(script, { headers: { 'content-type': 'text/javascript; charset=utf-8', ...noStore } }),
    ),
  ]
}
