// What a page of entries costs in-process, through msw's getResponse and the emulator's handlers, as
// the store grows from 10,000 to 250,000 entries. The baseline, measured in the same run, is the same
// page read through @msw/data's own findMany with a cursor (a scan of the collection).
// Not a test: figures depend on the machine. Run: npm run bench:pages
import { getResponse } from 'msw'
import { createEmulator, type Emulator, type ScenarioInput } from '../src/index.js'
import { median } from './support/stats.js'

const NOW = '2026-06-01T12:00:00.000Z'
const TARGET = 50_000
const SIZES = [10_000, 50_000, 250_000]
const LIMIT = 1000
const REPEATS = 60
/** Collects garbage between phases (the script runs with --expose-gc), so no phase pays for another's. */
const collect = () => (globalThis as { gc?: () => void }).gc?.()

/** A store of `size` entries: forms of 5,000 entries, then one giveaway with up to 50,000 (last, as the newest data is). */
function scenarioOf(size: number): ScenarioInput {
  const target = Math.min(TARGET, size)
  const rest = size - target
  return {
    name: `pages-${size}`,
    description: `${size} entries`,
    seed: 1,
    accounts: [
      {
        name: 'bench',
        apiKeys: ['bench-key'],
        people: 60_000,
        activations: [
          ...(rest > 0 ? [{ type: 'form' as const, state: 'ended' as const, count: rest / 5000, entries: 5000 }] : []),
          { key: 'target', type: 'giveaway', state: 'ended', entries: target },
        ],
      },
    ],
  }
}

/** CPU milliseconds this process spent since `from` (a `process.cpuUsage()`): unlike wall time, not inflated by other processes' turns on a shared machine. */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from)
  return (used.user + used.system) / 1000
}

/** Milliseconds until the response is there (`answer`), until its body is read as text (`read`), and the CPU's until the answer (`cpu`). */
async function timeRequest(emulator: Emulator, path: string): Promise<Timing> {
  const request = new Request(`${emulator.baseUrl}${path}`, { headers: { authorization: 'Api-Key bench-key' } })
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  const response = await getResponse(emulator.handlers, request)
  const t1 = performance.now()
  const cpu = cpuSince(c0)
  const text = await response!.text()
  const t2 = performance.now()
  if (response!.status !== 200 || text.length < 100) throw new Error(`Failed to get ${path}: ${response!.status}`)
  return { answer: t1 - t0, read: t2 - t0, cpu }
}

type Timing = { answer: number; read: number; cpu: number }
const answerOf = (ts: Timing[]) => median(ts.map((t) => t.answer))
const readOf = (ts: Timing[]) => median(ts.map((t) => t.read))
const cpuOf = (ts: Timing[]) => median(ts.map((t) => t.cpu))

// Warm the JIT on a throwaway store first, so the first size is not measured cold.
{
  const emulator = await createEmulator({ scenario: scenarioOf(10_000), now: NOW })
  const target = emulator.db.index.activationsOf('bench')[0]!
  const all = emulator.db.index.entryListsOf(target.id).all
  for (let i = 0; i < 200; i++) {
    await timeRequest(emulator, `/activations/${target.id}?limit=${LIMIT}&next=${all[(i * 37) % 9000]!.id}`)
  }
}

const rows: string[][] = []
const warmMiddle: number[] = []
const warmAnswers: number[] = []
for (const size of SIZES) {
  const emulator = await createEmulator({ scenario: scenarioOf(size), now: NOW })
  const index = emulator.db.index
  const target = index.activationsOf('bench').find((a) => a.type === 'giveaway')!
  const all = index.entryListsOf(target.id).all
  const day = all[Math.floor(all.length / 2)]!.enteredAt.iso.slice(0, 10)
  const base = `/activations/${target.id}?limit=${LIMIT}`

  collect()
  // Cold: pages never served before (each entry's JSON is built and kept); warm: the same pages again.
  const pages = Array.from({ length: 20 }, (_, i) => all[Math.floor(((i + 0.5) * all.length) / 20)]!.id)
  const cold: Timing[] = []
  for (const id of pages) cold.push(await timeRequest(emulator, `${base}&next=${id}`))
  const warm: Timing[] = []
  for (let r = 0; r < REPEATS; r++) warm.push(await timeRequest(emulator, `${base}&next=${pages[r % pages.length]}`))
  collect()
  const first: Timing[] = []
  const winners: Timing[] = []
  const since: Timing[] = []
  for (let r = 0; r < REPEATS; r++) {
    first.push(await timeRequest(emulator, base))
    winners.push(await timeRequest(emulator, `${base}&is_winner=1`))
    since.push(await timeRequest(emulator, `${base}&start_date=${day}`))
  }

  // Baseline: the same middle page through @msw/data (a scan to the cursor, then a filter).
  const scan: number[] = []
  const scanCpu: number[] = []
  for (let r = 0; r < 5; r++) {
    const cursor = emulator.db.materialize().entries.findFirst((q) => q.where({ id: pages[10]! }))!
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    const page = emulator.db
      .materialize()
      .entries.findMany((q) => q.where({ activationId: target.id }), { cursor, take: LIMIT })
    scan.push(performance.now() - t0)
    scanCpu.push(cpuSince(c0))
    if (page.length !== LIMIT) throw new Error('Failed to read the baseline page')
  }

  warmMiddle.push(readOf(warm))
  warmAnswers.push(answerOf(warm))
  rows.push([
    size.toLocaleString('en'),
    all.length.toLocaleString('en'),
    `${answerOf(cold).toFixed(2)} / ${readOf(cold).toFixed(2)}`,
    `${answerOf(warm).toFixed(2)} / ${readOf(warm).toFixed(2)}`,
    readOf(first).toFixed(2),
    readOf(winners).toFixed(2),
    readOf(since).toFixed(2),
    median(scan).toFixed(1),
    `${(answerOf(warm) / median(scan)).toFixed(2)}x / ${(answerOf(cold) / median(scan)).toFixed(2)}x`,
    `${cpuOf(warm).toFixed(2)} / ${cpuOf(cold).toFixed(2)} / ${median(scanCpu).toFixed(2)}`,
    `${(cpuOf(warm) / median(scanCpu)).toFixed(2)}x / ${(cpuOf(cold) / median(scanCpu)).toFixed(2)}x`,
  ])
}

const header = [
  'store entries',
  'activation entries',
  'new page: answer / read',
  'served page: answer / read',
  'first page',
  'is_winner',
  'start_date',
  '@msw/data findMany',
  'served / new page answer, over findMany',
  'CPU: served / new page / findMany',
  'CPU: served / new page, over findMany',
]
console.log(`A ${LIMIT}-entry page of /activations/:id, in-process (msw getResponse), median ms.`)
console.log('answer: until the response is there; read: until its body is read as text. A new page serializes')
console.log('each entry (then kept); a served page was served before. first page, is_winner, start_date: read.')
console.log(
  "CPU: this process's CPU ms until the answer (findMany's, for the baseline), which other processes' load inflates less than wall time.",
)
console.log(`| ${header.join(' | ')} |`)
console.log(`| ${header.map(() => '---').join(' | ')} |`)
for (const row of rows) console.log(`| ${row.join(' | ')} |`)
const flat = (warmMiddle.at(-1) as number) / (warmMiddle[0] as number)
const flatAnswer = (warmAnswers.at(-1) as number) / (warmAnswers[0] as number)
console.log(
  `served page at 250,000 entries / at 10,000 entries: answer ${flatAnswer.toFixed(2)}x, read ${flat.toFixed(2)}x`,
)
