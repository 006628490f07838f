// 1. Create and first request: `host.sandbox()` then GET /activations/list?limit=100 with its key,
// beside a fresh busy `createEmulator` (a planned world, and the same request), and a fresh server
// process of the built command line until its first answer.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Emulator } from '../../src/index.js'
import { median } from '../support/stats.js'
import { ask, busy, FIRST_REQUEST, KEY, keyOf, NOW } from './busy.js'
import { met, ms, since } from './figures.js'
import { collect } from './settled.js'

const BIN = fileURLToPath(new URL('../../dist/src/node/cli/main.js', import.meta.url))

/** The value at or below which 90 % of `xs` are (nearest rank). */
const p90 = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.9) - 1]!

/** Measures and prints the three ways to a first answer; returns the target's row. */
export async function createAndFirstRequest(host: Emulator): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const sandbox = await host.sandbox()
    await ask(host, FIRST_REQUEST, keyOf(sandbox))
    await sandbox.close()
  }
  const sandboxTimes: number[] = []
  for (let i = 0; i < 100; i++) {
    const t = performance.now()
    const sandbox = await host.sandbox()
    await ask(host, FIRST_REQUEST, keyOf(sandbox))
    sandboxTimes.push(since(t))
    await sandbox.close()
  }
  const emulatorTimes: number[] = []
  for (let i = 0; i < 5; i++) {
    collect()
    const t = performance.now()
    const emulator = await busy()
    await ask(emulator, FIRST_REQUEST, KEY)
    emulatorTimes.push(since(t))
  }
  collect()
  const serverTimes: number[] = []
  for (let i = 0; i < 3; i++) serverTimes.push(await serverFirstAnswer())

  console.log(`\n1. Create and first request (GET ${FIRST_REQUEST}), ms:`)
  console.log('| | runs | median | p90 | range |')
  console.log('| --- | --- | --- | --- | --- |')
  const row = (name: string, xs: number[]) =>
    console.log(
      `| ${name} | ${xs.length} | ${ms(median(xs))} | ${ms(p90(xs))} | ${ms(Math.min(...xs))} to ${ms(Math.max(...xs))} |`,
    )
  row('a sandbox of the busy host', sandboxTimes)
  row('a fresh busy `createEmulator` (planned)', emulatorTimes)
  row('a fresh server process (`-s busy`), until its first answer', serverTimes)
  return `| create + first request, median | under 50 ms | ${ms(median(sandboxTimes))} (p90 ${ms(p90(sandboxTimes))}; a fresh emulator ${ms(median(emulatorTimes))}, a fresh server ${ms(median(serverTimes))}) | ${met(median(sandboxTimes) < 50)} |`
}

/** A fresh server of the built command line: ms from the spawn to its first answer of FIRST_REQUEST. */
async function serverFirstAnswer(): Promise<number> {
  const t = performance.now()
  const child = spawn(
    process.execPath,
    [BIN, '-s', 'busy', '--now', NOW, '--host', '127.0.0.1', '--port', '0', '--quiet'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.once('exit', (code) => reject(new Error(`Failed to start the server: exit ${code}`)))
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d
      const m = / listening on (\S+)/.exec(out)
      if (m) resolve(m[1]!)
    })
  })
  const response = await fetch(`${url}${FIRST_REQUEST}`, { headers: { authorization: `Api-Key ${KEY}` } })
  await response.arrayBuffer()
  const took = since(t)
  if (response.status !== 200) throw new Error(`Failed to get the server's first page: ${response.status}`)
  child.kill('SIGTERM')
  await exited
  return took
}
