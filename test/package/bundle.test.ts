import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ENTRY = `${ROOT}dist/src/index.js`

/** Runs a module in a fresh Node process from the repository's root and returns what it prints. */
const run = (source: string) =>
  execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' })

describe('the built Node entry (dist/src/index.js, what `import "activation-emulator"` loads in Node)', () => {
  it('is one file that imports nothing of the package and only msw, typescript, Node and (when needed) Faker of the rest', () => {
    const source = readFileSync(ENTRY, 'utf8')
    const imports = new Set(
      [...source.matchAll(/\bfrom\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']/g)].map((m) => m[1] ?? m[2]),
    )
    expect(
      [...imports].filter((name) => !/^(node:|msw(\/|$)|typescript$|@faker-js\/faker\/locale\/en$)/.test(name!)),
    ).toEqual([])
  })

  it('loads Faker only once a Faker is needed: not for a world given as data, but for one generated or for added entries', () => {
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
              if (String(request).includes('@faker-js/faker')) fakers.push(request)
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
      expect(loads(generated)).toEqual(['@faker-js/faker/locale/en'])
      expect(loads(`await createEmulator({ data: JSON.parse(readFileSync(dump, 'utf8')) })`)).toEqual([])
      const addOne = `
        const { getResponse } = await import('msw')
        const e = await createEmulator({ data: JSON.parse(readFileSync(dump, 'utf8')) })
        const request = new Request(e.baseUrl + '/activations/list?state=running&limit=1', { headers: { authorization: 'Api-Key demo-key' } })
        const { activations } = await (await getResponse(e.handlers, request)).json()
        await e.addEntries(activations[0].id, 1)`
      expect(loads(addOne)).toEqual(['@faker-js/faker/locale/en'])
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
