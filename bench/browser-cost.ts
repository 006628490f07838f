// What a browser pays for the emulator: the README's Vite example built as a user builds it, each
// script's size raw and gzipped (gzip's default level, as a web server sends it), then the page loaded
// in Debian's chromium several times, each in a fresh page: how long `createEmulator` takes to build
// the `default` world there (the example's `activation-emulator:build` performance measure), and until
// the page shows the list it fetched through msw's Service Worker. The same build in Node beside it.
// Not a test: figures depend on the machine. Run: npm run bench:browser [-- runs]
import { gzipSync } from 'node:zlib'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createEmulator } from '../src/index.js'
import { buildExample, launchChromium, serveFolder } from './browser-page.js'
import { median } from './support/stats.js'

const runs = Number(process.argv[2] ?? 5)
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`

const example = await buildExample()
console.log('The Vite example (vite build, minified), each script:')
let raw = 0
let gzipped = 0
for (const { file, bytes } of example.scripts) {
  const zipped = gzipSync(readFileSync(join(example.dir, 'assets', file))).length
  raw += bytes
  gzipped += zipped
  // Vite names the chunk of `import('./mocks')` after it: the emulator, msw and their dependencies.
  const what = file.startsWith('mocks') ? 'the emulator, msw/browser, faker, zod, @msw/data' : 'the app'
  console.log(`  ${file.padEnd(24)} ${kB(bytes).padStart(10)} raw ${kB(zipped).padStart(10)} gzipped  (${what})`)
}
console.log(`  ${'total'.padEnd(24)} ${kB(raw).padStart(10)} raw ${kB(gzipped).padStart(10)} gzipped`)

const site = await serveFolder(example.dir)
const browser = await launchChromium()
const builds: number[] = []
const shown: number[] = []
try {
  for (let run = 1; run <= runs; run++) {
    const page = await browser.newPage()
    await page.goto(`${site.url}/`)
    await page.waitForSelector('#activations li')
    const { build, ready } = await page.evaluate(() => ({
      build: performance.getEntriesByName('activation-emulator:build', 'measure')[0]!.duration,
      ready: performance.now(),
    }))
    builds.push(build)
    shown.push(ready)
    console.log(
      `run ${run}: default world built in the page in ${build.toFixed(0)} ms; list shown ${ready.toFixed(0)} ms after navigation`,
    )
    await page.close()
  }
} finally {
  await browser.close()
  await site.close()
  example.remove()
}
const nodeBuilds: number[] = []
for (let run = 1; run <= runs; run++) {
  const t0 = performance.now()
  await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00Z' })
  nodeBuilds.push(performance.now() - t0)
}
console.log(
  `median of ${runs}: built in the page ${median(builds).toFixed(0)} ms, list shown after ${median(shown).toFixed(0)} ms; ` +
    `the same build in Node (this process, warm after the first) ${median(nodeBuilds).toFixed(0)} ms`,
)
