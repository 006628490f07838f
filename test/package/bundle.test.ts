import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { startCli } from '../support/cli.js'
import { TEST_MS } from '../support/timeouts.js'
import { describe, expect, it, vi } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ENTRY = `${ROOT}dist/src/index.js`

/** Runs a module in a fresh Node process from the repository's root and returns what it prints. */
const run = (source: string) =>
  execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' })

/** What a built module imports, statically or with `import()`. */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8')
  const statics = /^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)";$|^import\s*"([^"]+)";$/gm
  return [...source.matchAll(statics), ...source.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => (m[1] ?? m[2])!)
}

/** Every .js file dist/ holds, relative to dist/. */
const builtCode = () =>
  readdirSync(`${ROOT}dist`, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .sort()

describe('the built Node entry (dist/src/index.js, what `import "activation-emulator"` loads in Node)', () => {
  it('ships each module once: the entries and the chunks they share, and no module of the sources beside them', () => {
    const entries = [
      'src/browser.js',
      'src/contract.js',
      'src/index.js',
      'src/inspector/client.js',
      'src/node/cli/main.js',
      'src/time/esm-probe.js',
    ]
    const files = builtCode()
    expect(files.filter((f) => !entries.includes(f) && !/^src\/[a-z-]+-[A-Z0-9]{8}\.js$/.test(f))).toEqual([])
    expect(files.filter((f) => entries.includes(f))).toEqual(entries)
    // The probe of require(esm) is an ES module (an empty file would load as CommonJS anywhere).
    expect(readFileSync(`${ROOT}dist/src/time/esm-probe.js`, 'utf8')).toMatch(/^export \{\}$/m)
  })

  it('imports only its own chunks and the one bundle of Faker (faker-en.cjs), and of the rest only msw, Node, zod and (the command line) yargs', () => {
    for (const file of builtCode().filter((f) => !['src/contract.js', 'src/inspector/client.js'].includes(f))) {
      const foreign = importsOf(`${ROOT}dist/${file}`).filter(
        (name) =>
          !/^(\.\/[a-z-]+-[A-Z0-9]{8}\.js|\.\.\/\.\.\/[a-z-]+-[A-Z0-9]{8}\.js|\.\/faker-en\.cjs|node:.*|msw(\/node|\/core\/http)?|zod)$/.test(
            name,
          ),
      )
      expect(foreign, file).toEqual(file === 'src/node/cli/main.js' ? ['yargs'] : [])
    }
  })

  it('loads neither msw, nor the server, nor Faker, nor yargs on import (of node_modules, zod only: the schemas); msw (not its GraphQL) with the first emulator, the server with the first serve()', () => {
    // Every module the process resolves, logged by a resolve hook.
    const loaded = (body: string) =>
      JSON.parse(
        run(`
          import { register } from 'node:module'
          const { port1, port2 } = new MessageChannel()
          const seen = []
          port1.on('message', (url) => seen.push(url))
          port1.unref()
          register('data:text/javascript,' + encodeURIComponent(\`
            let port
            export function initialize(data) { port = data.port }
            export async function resolve(specifier, context, next) {
              const result = await next(specifier, context)
              port.postMessage(result.url)
              return result
            }\`), { data: { port: port2 }, transferList: [port2] })
          const pkg = await import(${JSON.stringify(ENTRY)})
          ${body}
          await new Promise((resolve) => setTimeout(resolve, 100))
          console.log(JSON.stringify(seen))
        `)
          .trim()
          .split('\n')
          .at(-1)!,
      ) as string[]
    const named = (urls: string[]) =>
      urls
        .map(
          (url) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? (url === 'node:http' ? 'node:http' : null),
        )
        .filter((name): name is string => name !== null)
    const onImport = loaded('')
    expect(new Set(named(onImport))).toEqual(new Set(['zod']))
    const onCreate = new Set(
      named(loaded(`await pkg.createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00.000Z' })`)),
    )
    expect(onCreate.has('msw')).toBe(true)
    // msw 2's main entry imports GraphQL's parser whole; an emulator's handlers need none of it.
    expect(onCreate.has('graphql')).toBe(false)
    expect(onCreate.has('node:http')).toBe(false)
    const onServe = new Set(
      named(
        loaded(
          `const s = await pkg.serve(await pkg.createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00.000Z' }), { port: 0 }); await s.close()`,
        ),
      ),
    )
    expect(onServe.has('node:http')).toBe(true)
    expect(onServe.has('graphql')).toBe(false)
    expect([...onServe].filter((name) => name === 'yargs')).toEqual([])
  })

  it(
    'loads Faker only once a Faker is needed: not for a world given as data, but for one generated or for added entries',
    { timeout: TEST_MS.long },
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'activation-emulator-faker-'))
      const dump = join(dir, 'world.json')
      try {
        const loads = (create: string) =>
          JSON.parse(
            run(`
            import Module from 'node:module'
            import { readFileSync, writeFileSync } from 'node:fs'
            const load = Module._load
            const fakers = []
            Module._load = function (request, ...rest) {
              if (/faker/.test(String(request))) fakers.push(request)
              return load.call(this, request, ...rest)
            }
            const { createEmulator } = await import(${JSON.stringify(ENTRY)})
            const options = { scenario: 'default', now: '2026-06-01T12:00:00.000Z' }
            const dump = ${JSON.stringify(dump)}
            ${create}
            console.log(JSON.stringify(fakers))
          `)
              .trim()
              .split('\n')
              .at(-1)!,
          ) as string[]
        const generated = `const e = await createEmulator(options); writeFileSync(dump, [...e.dump()].join(''))`
        expect(loads(generated)).toEqual(['./faker-en.cjs'])
        expect(loads(`await createEmulator({ data: JSON.parse(readFileSync(dump, 'utf8')) })`)).toEqual([])
        const addOne = `
        const { getResponse } = await import('msw')
        const e = await createEmulator({ data: JSON.parse(readFileSync(dump, 'utf8')) })
        const request = new Request(e.baseUrl + '/activations/list?state=running&limit=1', { headers: { authorization: 'Api-Key demo-key' } })
        const { activations } = await (await getResponse(e.handlers, request)).json()
        await e.addEntries(activations[0].id, 1)`
        expect(loads(addOne)).toEqual(['./faker-en.cjs'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  )

  it('bundles for a browser (dist/src/browser.js), Faker from its one bundle, faker-en.cjs, in a chunk read when a Faker is needed', async () => {
    const { errors, metafile } = await build({
      absWorkingDir: ROOT,
      entryPoints: ['dist/src/browser.js'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      splitting: true,
      outdir: 'browser-bundle',
      write: false,
      metafile: true,
      logLevel: 'silent',
    })
    expect(errors).toEqual([])
    expect(Object.keys(metafile.inputs).filter((f) => /faker/.test(f))).toEqual(['dist/src/faker-en.cjs'])
    const entry = Object.values(metafile.outputs).find((o) => o.entryPoint === 'dist/src/browser.js')!
    expect(Object.keys(entry.inputs)).not.toContain('dist/src/faker-en.cjs')
  })

  it('serves from the command line as a user starts it (request log on) without loading GraphQL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'activation-emulator-resolved-'))
    const log = join(dir, 'resolved.txt')
    // A resolve hook, on its own thread, that appends every URL the process resolves to a file.
    const hook = `import { appendFileSync } from 'node:fs'
      export async function resolve(specifier, context, next) {
        const result = await next(specifier, context)
        appendFileSync(${JSON.stringify(log)}, result.url + '\\n')
        return result
      }`
    const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)})`
    try {
      const server = await startCli(['--now', '2026-06-01T12:00:00Z'], {
        NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(register)}`,
      })
      try {
        const response = await fetch(`${server.url}/activations/list?limit=1`, {
          headers: { authorization: 'Api-Key demo-key' },
        })
        expect(response.status).toBe(200)
        await response.text()
        // The request log, on by default, has its line.
        await vi.waitFor(() => expect(server.stdout()).toMatch(/GET \/activations\/list\?limit=1 200/))
      } finally {
        await server.stop()
      }
      const resolved = readFileSync(log, 'utf8')
      expect(resolved).toMatch(/node_modules\/msw\//)
      expect(resolved).not.toMatch(/node_modules\/graphql\//)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('serves the API and the inspector with its script, from the bundle', () => {
    const out = run(`
      const { createEmulator, serve } = await import(${JSON.stringify(ENTRY)})
      const emulator = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00.000Z' })
      const server = await serve(emulator, { port: 0 })
      const list = await fetch(server.url + '/activations/list?limit=1', { headers: { authorization: 'Api-Key demo-key' } })
      const script = await fetch(server.adminUrl + '/client.js')
      console.log(JSON.stringify({ list: list.status, script: script.status, type: script.headers.get('content-type'), text: await script.text() }))
      await server.close()
    `)
    const answer = JSON.parse(out.trim().split('\n').at(-1)!) as {
      list: number
      script: number
      type: string
      text: string
    }
    expect(answer.list).toBe(200)
    expect(answer.script).toBe(200)
    expect(answer.type).toMatch(/^text\/javascript/)
    expect(answer.text).toBe(readFileSync(`${ROOT}dist/src/inspector/client.js`, 'utf8'))
  })
})
