import { mkdtempSync, readdirSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import {
  groupAlive,
  processesOfRun,
  recorded,
  removeRun,
  RUN_VARIABLE,
  signalGroup,
  type Leftover,
} from './process-registry.js'

// The run's global set-up and teardown for processes (vitest.config.ts, vitest.soak.config.ts): a folder
// for the run, named in the environment every worker and every process they start inherits; on SIGINT or
// SIGTERM every group recorded so far is killed; at the end, the check that nothing the suite started is
// alive and no port it opened still listens, which fails the run naming what was left (after ending it).

let dir = ''

const PREFIX = 'activation-emulator-test-run-'

export function setup(): void {
  endStaleRuns()
  dir = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`))
  process.env[RUN_VARIABLE] = dir
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const owned of recorded(dir)) signalGroup(owned.pid)
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
    })
  }
}

export async function teardown(): Promise<void> {
  const groups = recorded(dir)
  const left: string[] = []
  for (const owned of groups.filter((g) => groupAlive(g.pid)))
    left.push(
      `the process group of ${owned.pid} (${owned.command}), started by ${relative(process.cwd(), owned.file) || 'a hook'}`,
    )
  // The runner and its workers carry the marker too; the workers are its children.
  const marked = processesOfRun(dir, (pid, ppid) => pid === process.pid || ppid === process.pid) ?? []
  for (const p of marked) left.push(describe(p))
  const ports = [...new Set(groups.flatMap((g) => g.ports))].filter(
    (port) => !marked.some((p) => p.ports.includes(port)),
  )
  for (const port of ports) if (await listening(port)) left.push(`port ${port} still listening`)
  for (const owned of groups) signalGroup(owned.pid)
  for (const p of marked) signalGroup(p.pid)
  for (const p of marked) kill(p.pid)
  removeRun(dir)
  if (left.length === 0) return
  // Vitest reports an error thrown here ("error during close"); the exit code is set here.
  process.exitCode = 1
  throw new Error(
    `The suite left ${left.length} thing(s) running (now ended):\n${left.map((l) => `  - ${l}`).join('\n')}`,
  )
}

function describe(p: Leftover): string {
  const ports = p.ports.length ? `, listening on ${p.ports.join(', ')}` : ''
  return `process ${p.pid} (${p.command})${ports}`
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL')
  } catch {
    // Gone.
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}

/**
 * What an earlier run left when its runner was killed outright (SIGKILL: no handler ran): the processes
 * that carry its marker are ended (only those, so that a process group number used again by someone
 * else is never signalled), and its folder removed.
 */
function endStaleRuns(): void {
  for (const name of readdirSync(tmpdir())) {
    const runner = Number(name.startsWith(PREFIX) ? name.slice(PREFIX.length).split('-')[0] : NaN)
    if (!Number.isInteger(runner) || runnerAlive(runner)) continue
    const stale = join(tmpdir(), name)
    for (const p of processesOfRun(stale, () => false) ?? []) kill(p.pid)
    removeRun(stale)
  }
}

function runnerAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
