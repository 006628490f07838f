// What the browser test and the browser benchmark share: the README's Vite example built as a user's
// bundler builds it (the package found by name, through its `browser` export condition), a static
// server for it with msw's Service Worker, and Debian's chromium driven by playwright-core (nothing
// downloads a browser). Needs dist/ built (`npm run build`).
import {
  accessSync,
  constants,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright-core'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const EXAMPLE = join(ROOT, 'examples/vite')

/** The built example: where its files are, and each JavaScript file's size. */
export type BuiltExample = { dir: string; scripts: Array<{ file: string; bytes: number }>; remove(): void }

/**
 * Builds examples/vite with Vite in a temporary copy whose node_modules links this package and msw,
 * as `npm install` would, with the emulator switched on (`VITE_EMULATOR=on`), then adds msw's worker.
 */
export async function buildExample(): Promise<BuiltExample> {
  const { build } = await import('vite')
  const dir = mkdtempSync(join(tmpdir(), 'activation-emulator-vite-'))
  cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !/[/\\](node_modules|dist)$/.test(src) })
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(ROOT, join(dir, 'node_modules/activation-emulator'), 'dir')
  for (const name of ['msw', 'vite'])
    symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir')
  const out = join(dir, 'dist')
  await build({
    root: dir,
    configFile: join(dir, 'vite.config.ts'),
    logLevel: 'warn',
    define: { 'import.meta.env.VITE_EMULATOR': JSON.stringify('on') },
    // The emulator's chunk (faker, zod, msw) is over Vite's 500 kB warning; bench/browser-cost.ts prints it.
    build: { outDir: out, chunkSizeWarningLimit: 2048 },
  })
  // What `npx msw init public` puts in a project: the worker of the installed msw.
  copyFileSync(join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'), join(out, 'mockServiceWorker.js'))
  const scripts = readdirSync(join(out, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((file) => ({ file, bytes: readFileSync(join(out, 'assets', file)).length }))
  return { dir: out, scripts, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
}

/** Serves a folder's files on 127.0.0.1 (a secure context, so Service Workers run). */
export async function serveFolder(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    // A URL's path is absolute, so normalize keeps it inside the folder.
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname))
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path)
    try {
      const body = readFileSync(file)
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * The chromium that the benchmarks and the tests drive (test/support/chromium.ts), found one way:
 * CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Ubuntu's /usr/bin/chromium-browser. The path to
 * launch, or undefined when none of them is an executable file.
 */
export function findChromium(): string | undefined {
  const candidates = process.env['CHROMIUM_PATH'] ? [process.env['CHROMIUM_PATH']] : CHROMIUM_PLACES
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}

/** Where chromium is looked for when CHROMIUM_PATH is not set. */
export const CHROMIUM_PLACES = ['/usr/bin/chromium', '/usr/bin/chromium-browser']

/** The chromium found, or the first place it was looked for (for the error launching it gives). */
export const CHROMIUM = findChromium() ?? process.env['CHROMIUM_PATH'] ?? CHROMIUM_PLACES[0]!

/** Launches chromium headless (without the sandbox, which a root user in a container cannot have). */
export function launchChromium(timeout?: number): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'], timeout })
}
