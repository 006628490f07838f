// A server of the built command line in its own process, on 127.0.0.1 and a free port, for the soaks
// (bench/load.ts, bench/soak.ts, test/server/soak.test.ts): its resident memory, read from /proc, and
// its live heap, which it reports on a signal after full collections (HEAP_PROBE).
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
   * V8's heap in use after full collections forced now, in MB: what the server holds once its garbage
   * is gone, with what its requests in flight hold (none, once a load run has ended).
   */
  liveHeap(): Promise<number>
  /** Stops it (SIGTERM, then SIGKILL after two seconds) and resolves once it has exited. */
  stop(): Promise<void>
}

/** Starts `activation-emulator` with `args` on 127.0.0.1 and a free port; resolves once it listens. */
export function startServer(args: string[], nodeFlags: string[] = []): Promise<ServerProcess> {
  const flags = [...nodeFlags, '--expose-gc', '--import', HEAP_PROBE]
  const child = spawn(process.execPath, [...flags, BIN, ...args, '--host', '127.0.0.1', '--port', '0', '--quiet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  let partial = ''
  const heapReaders: ((bytes: number) => void)[] = []
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    const lines = (partial + d).split('\n')
    partial = lines.pop()!
    for (const line of lines) {
      const bytes = HEAP_LINE.exec(line)?.[1]
      if (bytes === undefined) err += `${line}\n`
      else heapReaders.shift()?.(Number(bytes))
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
      reject(new Error(`Failed to start the server within 120 s: ${err}${partial}`))
    }, 120_000)
    child.once('exit', (code) => reject(new Error(`Failed to start the server: exit ${code}: ${err}${partial}`)))
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
        liveHeap: () =>
          new Promise<number>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new Error(`Failed to read the server's heap within ${HEAP_WAIT_MS / 1000} s`)),
              HEAP_WAIT_MS,
            )
            heapReaders.push((bytes) => {
              clearTimeout(timer)
              resolve(bytes / 1024 / 1024)
            })
            child.kill('SIGUSR2')
          }),
        stop,
      })
    })
  })
}

/**
 * Loaded into every server before its own code (`--import`, with `--expose-gc`): on SIGUSR2, three full
 * collections (the last frees what the first ones' finalizers let go), then the heap in use, in bytes,
 * on a line of stderr (HEAP_LINE).
 */
const HEAP_PROBE = `data:text/javascript,${encodeURIComponent(
  `process.on('SIGUSR2', () => { for (let i = 0; i < 3; i++) gc(); ` +
    `process.stderr.write('heap-in-use ' + process.memoryUsage().heapUsed + '\\n') })`,
)}`
const HEAP_LINE = /^heap-in-use (\d+)$/
/** How long a read of the heap may take: a hang only (three full collections of a 100 MB heap take well under a second). */
const HEAP_WAIT_MS = 120_000

/** A line of /proc/<pid>/status in MB (Linux). */
function memory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]
  if (kb === undefined) throw new Error(`Failed to read ${field} of process ${pid}`)
  return Number(kb) / 1024
}
