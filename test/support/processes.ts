import {
  spawn,
  type ChildProcess,
  type ChildProcessWithoutNullStreams,
  type SpawnOptions,
  type SpawnOptionsWithoutStdio,
} from 'node:child_process'
import { expect } from 'vitest'
import { groupAlive, record, runDir, RUN_VARIABLE, signalGroup, type Owned } from './process-registry.js'
import { WAIT } from './timeouts.js'

// Every process a test starts is started here: in a process group of its own (so that a server a shell
// started in the background ends with the shell), recorded for the run's check at the end, and ended
// when its test file ends if the test did not end it (test/support/end-processes.ts), when the worker
// exits, and on SIGINT or SIGTERM.

type State = { live: Map<number, Owned>; installed: boolean }
// Vitest evaluates this module again for each test file in a worker: one state for the worker.
const state: State = ((globalThis as { [key: symbol]: State })[Symbol.for('activation-emulator.test-processes')] ??= {
  live: new Map(),
  installed: false,
})

/**
 * `spawn`, with the child leading a process group of its own, carrying the run's marker, and owned by
 * the suite: the tests still stop what they start, and this is the net below them.
 */
export function spawnOwned(
  command: string,
  args: readonly string[],
  options?: SpawnOptionsWithoutStdio,
): ChildProcessWithoutNullStreams
export function spawnOwned(command: string, args: readonly string[], options: SpawnOptions): ChildProcess
export function spawnOwned(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  installHandlers()
  const env = { ...(options.env ?? process.env) }
  const dir = runDir()
  if (dir) env[RUN_VARIABLE] = dir
  const child = spawn(command, args, { ...options, env, detached: true })
  if (child.pid === undefined) return child // It could not start: its 'error' event says why.
  const owned: Owned = {
    pid: child.pid,
    command: [command, ...args].join(' ').slice(0, 200),
    file: expect.getState().testPath ?? '',
    ports: [],
  }
  state.live.set(child.pid, owned)
  record(owned)
  return child
}

/** A process run to its end. */
export type Finished = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/**
 * Runs a process to its end and resolves with what it wrote, whatever its exit code; after `timeoutMs`
 * (WAIT.run by default) its whole group is killed, and it resolves with signal SIGKILL.
 */
export function runOwned(
  command: string,
  args: readonly string[],
  options: SpawnOptions & { timeoutMs?: number; input?: string } = {},
): Promise<Finished> {
  const { timeoutMs = WAIT.run, input, ...spawnOptions } = options
  return new Promise((resolve, reject) => {
    const child = spawnOwned(command, args, { ...spawnOptions, stdio: 'pipe' })
    let stdout = ''
    let stderr = ''
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.stdin!.end(input)
    const timer = setTimeout(() => killGroup(child), timeoutMs)
    child.on('error', (error) => (clearTimeout(timer), reject(error)))
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      killGroup(child) // What it started and left behind.
      resolve({ code, signal, stdout, stderr })
    })
  })
}

/** `runOwned`, rejecting unless the process exits with 0: the error carries its stdout and stderr, as execFile's does. */
export async function execOwned(
  command: string,
  args: readonly string[],
  options: SpawnOptions & { timeoutMs?: number } = {},
): Promise<Finished> {
  const done = await runOwned(command, args, options)
  if (done.code === 0) return done
  const how = done.code === null ? `was killed by ${done.signal}` : `exited with ${done.code}`
  throw Object.assign(new Error(`${command} ${args.join(' ')} ${how}`), done)
}

/** Notes a port the child listens on, for the check at the end. */
export function ownPort(child: ChildProcess, port: number): void {
  const owned = child.pid === undefined ? undefined : state.live.get(child.pid)
  if (!owned || owned.ports.includes(port)) return
  owned.ports.push(port)
  record(owned)
}

/** Kills the child's whole group (what is left of it), at once. */
export function killGroup(child: ChildProcess): void {
  if (child.pid !== undefined) signalGroup(child.pid)
}

/** Kills every group this worker started that is still alive, and returns what they were. */
export function endLeftGroups(): Owned[] {
  const left = [...state.live.values()].filter((owned) => groupAlive(owned.pid))
  for (const owned of left) signalGroup(owned.pid)
  state.live.clear()
  return left
}

function installHandlers(): void {
  if (state.installed) return
  state.installed = true
  process.once('exit', () => void endLeftGroups())
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      endLeftGroups()
      // Alone, the handler took the signal's default away: give it back.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
    })
  }
}
