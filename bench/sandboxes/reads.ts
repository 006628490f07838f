// 3. Reads in a sandbox that changed nothing beside the same reads on the base: in-process pages per
// second (msw getResponse), walking busy's lists by following `next`, the modes interleaved list by list.
import type { Emulator } from '../../src/index.js'
import { median, sum } from '../support/stats.js'
import { ask, KEY, keyOf } from './busy.js'
import { met, since } from './figures.js'
import { MOST_PAGES, nextOf, type Walk, withNext } from './pages.js'
import { collect } from './settled.js'

/** Each page's ms of the clock and of the process's CPU. */
type Times = { clock: number[]; cpu: number[] }

/** Walks one list, up to MOST_PAGES pages, one request at a time, adding each page's times to `times`. */
async function walkOne(emulator: Emulator, walk: Walk, key: string, base: string, times?: Times): Promise<void> {
  let next: string | null = null
  let pages = 0
  do {
    const t = performance.now()
    const cpu = process.cpuUsage()
    next = nextOf((await ask(emulator, withNext(walk.path, next), key, base)).slice(-80))
    const used = process.cpuUsage(cpu)
    times?.cpu.push((used.user + used.system) / 1000)
    times?.clock.push(since(t))
    pages++
  } while (next !== null && pages < MOST_PAGES)
}

/**
 * Walks `walks` `rounds` times in each of four modes (`plain`, an emulator with no sandbox; the base
 * of `host`; a sandbox of it by its key; the same under its path) and prints the rates; returns the
 * target's row.
 */
export async function reads(host: Emulator, plain: Emulator, walks: Walk[], rounds: number): Promise<string> {
  const kinds = [...new Set(walks.map((w) => w.kind))]
  const reader = await host.sandbox({ label: 'reads' })
  const modes = [
    { name: 'an emulator with no sandbox', emulator: plain, key: KEY, base: plain.baseUrl },
    { name: 'the base (sandboxes open)', emulator: host, key: KEY, base: host.baseUrl },
    { name: 'a sandbox, by its key', emulator: host, key: keyOf(reader), base: host.baseUrl },
    { name: 'a sandbox, under its path', emulator: host, key: keyOf(reader), base: reader.baseUrl },
  ]
  // Each page served once in each mode (each record's JSON is kept once made), and the JIT warm.
  for (const mode of modes) for (const walk of walks) await walkOne(mode.emulator, walk, mode.key, mode.base)
  // Each list is walked in every mode before the next, in an order that turns, so that what else
  // loads the machine falls on every mode alike. Each page's CPU time is counted beside the clock's:
  // on a machine shared with other work the clock also counts the time spent waiting for a core.
  const times = modes.map(() => new Map<string, Times>(kinds.map((k) => [k, { clock: [], cpu: [] }])))
  for (let round = 0; round < rounds; round++) {
    collect()
    for (const [w, walk] of walks.entries()) {
      for (let m = 0; m < modes.length; m++) {
        const i = (m + w + round) % modes.length
        const mode = modes[i]!
        await walkOne(mode.emulator, walk, mode.key, mode.base, times[i]!.get(walk.kind))
      }
    }
  }
  await reader.close()
  /**
   * Pages a second over every page read in mode `i`: by the clock, by CPU, or by each kind's median
   * page of CPU (what a page costs without the garbage collections and the other processes that
   * fall on some pages at random).
   */
  const rate = (i: number, by: 'clock' | 'cpu' | 'median') => {
    let pages = 0
    let time = 0
    for (const t of times[i]!.values()) {
      pages += t.cpu.length
      time += by === 'median' ? median(t.cpu) * t.cpu.length : sum(t[by])
    }
    return (pages * 1000) / time
  }
  const walkPages = [...times[0]!.values()].reduce((n, t) => n + t.cpu.length, 0) / rounds
  console.log(
    `\n3. Reads in-process: ${walkPages} pages a walk (${walks.length} lists, up to ${MOST_PAGES} pages each), ${rounds} walks in each mode, interleaved list by list. Pages a second, by the clock, by the process's CPU time, and by each kind's median page of CPU time; then the median page of each kind, ms of CPU:`,
  )
  console.log(`| | ${modes.map((m) => m.name).join(' | ')} |`)
  console.log(`| --- | ${modes.map(() => '---').join(' | ')} |`)
  for (const [by, what] of [
    ['clock', 'pages/s, clock'],
    ['cpu', 'pages/s, CPU'],
    ['median', 'pages/s, median pages of CPU'],
  ] as const) {
    console.log(
      `| ${what} | ${modes.map((_, i) => `${rate(i, by).toFixed(0)} (${(rate(i, by) / rate(1, by)).toFixed(3)})`).join(' | ')} |`,
    )
  }
  for (const kind of kinds) {
    console.log(`| ${kind} | ${times.map((t) => median(t.get(kind)!.cpu).toFixed(3)).join(' | ')} |`)
  }
  const ratio = (by: 'clock' | 'cpu' | 'median', i = 2) => rate(i, by) / rate(1, by)
  return `| reads in an unchanged sandbox / on the base, pages/s by the median page of CPU | within 10 % | ${ratio('median').toFixed(3)} (${rate(2, 'median').toFixed(0)} / ${rate(1, 'median').toFixed(0)}; by all CPU time ${ratio('cpu').toFixed(3)}, by the clock ${ratio('clock').toFixed(3)}; under its path ${ratio('median', 3).toFixed(3)}; an emulator with no sandbox ${ratio('median', 0).toFixed(3)}) | ${met(ratio('median') >= 0.9)} |`
}
