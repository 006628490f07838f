// A server of the built command line in its own process, on 127.0.0.1 and a free port, for the soaks
// (bench/load.ts, bench/soak.ts, test/server/soak.test.ts): its resident memory, read from /proc, and
// its live heap, read from V8's line for each full collection when started with `--trace-gc`.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The built command line; SOAK_BIN names another build (to measure a version before a change). */
const BIN = process.env['SOAK_BIN'] ?? fileURLToPath(new URL('../dist/src/node/cli/main.js', import.meta.url))

/** A server of the built command line, in its own process. */
export type ServerProcess = {
  /** Where the API answers, e.g. `http://127.0.0.1:40123`. */
  url: string
  child: ChildProcess
  /** Resident memory now, in MB. */
  rss(): number
  /** The highest resident memory since the process started (VmHWM), in MB. */
  peak(): number
  /**
   * V8's heap after each full collection (mark-compact) since the last call, in MB, with when it was
   * read (`performance.now()`): what the server still held once its garbage was gone, with what its
   * requests in flight held. Empty unless the server was started with `--trace-gc`.
   */
  liveHeaps(): { at: number; mb: number }[]
  /** Stops it (SIGTERM, then SIGKILL after two seconds) and resolves once it has exited. */
  stop(): Promise<void>
}

/** Starts `activation-emulator` with `args` on 127.0.0.1 and a free port; resolves once it listens. */
export function startServer(args: string[], nodeFlags: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeFlags, BIN, ...args, '--host', '127.0.0.1', '--port', '0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  let traced = ''
  let heaps: { at: number; mb: number }[] = []
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    const lines = (traced + d).split('\n')
    traced = lines.pop()!
    for (const line of lines) {
      const after = FULL_COLLECTION.exec(line)?.[1]
      if (after !== undefined) heaps.push({ at: performance.now(), mb: Number(after) })
    }
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000)
    await exited
    clearTimeout(timer)
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`Failed to start the server within 120 s: ${err}`))
    }, 120_000)
    child.once('exit', (code) => reject(new Error(`Failed to start the server: exit ${code}: ${err}`)))
    child.stdout!.on('data', (d: string) => {
      if (out.includes(' listening on ')) return
      out += d
      const match = / listening on (\S+)/.exec(out)
      if (!match) return
      clearTimeout(timer)
      child.stdout!.resume()
      resolve({
        url: match[1]!,
        child,
        rss: () => memory(child.pid!, 'VmRSS'),
        peak: () => memory(child.pid!, 'VmHWM'),
        liveHeaps: () => {
          const since = heaps
          heaps = []
          return since
        },
        stop,
      })
    })
  })
}

/**
 * The line `--trace-gc` prints for a full collection, e.g.
 * `[9:0x6a1b000]  5301 ms: Mark-Compact 41.2 (52.6) -> 30.1 (52.1) MB, ...`: the heap's size after it.
 */
const FULL_COLLECTION = /: Mark-Compact [\d.]+ \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/

/** A line of /proc/<pid>/status in MB (Linux). */
function memory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]
  if (kb === undefined) throw new Error(`Failed to read ${field} of process ${pid}`)
  return Number(kb) / 1024
}
