import { Worker } from 'node:worker_threads'

/** What a probe saw while a case ran: its worst wait, how many small pages it asked, and how long the case took. */
export type ProbeFigures = { worstMs: number; probes: number; caseMs: number }

// The probe runs in a worker thread of its own, so that what the measuring process does meanwhile (a
// case reading a 100 MB dump, parsing a large answer) never counts as the server's delay. It asks one
// small page at a time on one kept-alive connection, waits `everyMs` between them, and keeps the
// longest time from a request to its last byte, counting one still unanswered when it is stopped.
const PROBE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const http = require('node:http')
const { url, headers, everyMs } = workerData
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
let stopped = false
let worst = 0
let probes = 0
let startedAt = 0
function ask() {
  return new Promise((resolve) => {
    const req = http.get(url, { headers, agent }, (res) => {
      res.on('data', () => {})
      res.on('end', resolve)
      res.on('error', resolve)
    })
    req.on('error', resolve)
  })
}
parentPort.on('message', (message) => {
  if (message === 'start') {
    worst = 0
    probes = 0
    return
  }
  stopped = true
  const open = startedAt > 0 ? performance.now() - startedAt : 0
  parentPort.postMessage({ worstMs: Math.max(worst, open), probes })
})
;(async () => {
  while (!stopped) {
    startedAt = performance.now()
    await ask()
    const took = performance.now() - startedAt
    startedAt = 0
    if (stopped) break
    probes++
    if (took > worst) worst = took
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
  agent.destroy()
})()
`

/**
 * A second client of a served world: while `work` runs, it asks a small page every `everyMs` ms (one
 * at a time) and reports the longest any of them waited. A server whose event loop a case holds for
 * N ms makes one of them wait about N ms.
 * @example const { worstMs } = await underProbe(`${url}/activations/list?limit=1`, { authorization }, () => fetch(dump))
 */
export async function underProbe<T>(
  probeUrl: string,
  headers: Record<string, string>,
  work: () => Promise<T>,
  everyMs = 5,
): Promise<{ value: T } & ProbeFigures> {
  const worker = new Worker(PROBE_SOURCE, { eval: true, workerData: { url: probeUrl, headers, everyMs } })
  try {
    // A few probes before the case open the probe's connection, so that opening it is not the case's
    // cost; the worst is counted from the case's start.
    await new Promise((resolve) => setTimeout(resolve, 4 * everyMs + 50))
    worker.postMessage('start')
    const started = performance.now()
    const value = await work()
    const caseMs = performance.now() - started
    const figures = await new Promise<{ worstMs: number; probes: number }>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
      worker.postMessage('stop')
    })
    return { value, ...figures, caseMs }
  } finally {
    await worker.terminate()
  }
}
