// What a sandbox costs on the busy world, beside what it replaces (one fresh emulator or one fresh
// server per test), each baseline measured in the same run, one file of sandboxes/ each:
// 1. create and first request (create.ts);
// 2. memory added by 100 idle sandboxes, beside one more busy emulator (memory.ts);
// 3. reads in a sandbox that changed nothing beside the same reads on the base, in-process (reads.ts);
// 4. 16 clients over HTTP, a sandbox each, beside 16 clients sharing the base world (http.ts).
// Then each target, met or missed. Not a test: figures depend on the machine.
// Run: npm run bench:sandboxes [-- --rounds 8] [-- --slices 20] [-- --only create|memory|reads|http]
import { cpus, loadavg } from 'node:os'
import type { Emulator } from '../src/index.js'
import { ask, busy, FIRST_REQUEST, KEY, keyOf, NOW } from './sandboxes/busy.js'
import { createAndFirstRequest } from './sandboxes/create.js'
import { ms, since } from './sandboxes/figures.js'
import { overHttp } from './sandboxes/http.js'
import { memory } from './sandboxes/memory.js'
import { reads } from './sandboxes/reads.js'
import { walksOf } from './sandboxes/walks.js'

const argv = process.argv.slice(2)
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
const ROUNDS = Number(flag('--rounds') ?? 8)
const SLICES = Number(flag('--slices') ?? 20)
const ONLY = flag('--only')
const runs = (part: 'create' | 'memory' | 'reads' | 'http') => ONLY === undefined || ONLY === part
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')

console.log(
  `Sandboxes of the busy world (--now ${NOW}); Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model.trim()})`,
)
console.log(`Load average at the start: ${load()}`)

let t0 = performance.now()
const host = await busy()
await ask(host, FIRST_REQUEST, KEY)
console.log(
  `The host: busy created and its first page in ${ms(since(t0))} (the first run builds the world and caches it)`,
)
t0 = performance.now()
const first = await host.sandbox()
await ask(host, FIRST_REQUEST, keyOf(first))
console.log(`The host's first sandbox, which has it load the rest of a cached world (once per host): ${ms(since(t0))}`)
await first.close()
const targets: string[] = []

// 2 first, while the process holds only the host; its busy emulator, loaded whole, is the reads' baseline.
let plain: Emulator | undefined
if (runs('memory') || runs('reads')) {
  const measured = await memory(host, runs('memory'))
  plain = measured.plain
  if (measured.target !== undefined) targets.push(measured.target)
}
if (runs('create')) targets.unshift(await createAndFirstRequest(host))
const walks = await walksOf(host)
if (runs('reads')) targets.push(await reads(host, plain!, walks, ROUNDS))
if (runs('http')) targets.push(await overHttp(host, walks, SLICES))

console.log(`\nTargets (load average at the end: ${load()}):`)
console.log('| figure | target | measured | |')
console.log('| --- | --- | --- | --- |')
for (const line of targets) console.log(line)
process.exit(0)
