import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/**
 * The built command line, as `npx activation-emulator` runs it: this repository's, or another's named
 * by EMULATOR_TEST_BIN (the msw 3 job's installed package).
 */
export const BIN =
  process.env['EMULATOR_TEST_BIN'] ?? fileURLToPath(new URL('../../dist/src/node/cli/main.js', import.meta.url))

/**
 * The environment a run gets: the caller's, without any ACTIVATION_EMULATOR_ variable or COLUMNS (so
 * that no test depends on how the suite was started), plus `env`.
 */
export function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('ACTIVATION_EMULATOR_') && name !== 'COLUMNS'),
  )
  return { ...clean, ...env }
}

/** A finished run of the command line. */
export type CliRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** Runs the command line to its end (or kills it after `timeoutMs`). */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env) })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr })
    })
  })
}

/** A server started from the command line. */
export type CliServer = {
  url: string
  child: ChildProcess
  /** Everything written to stdout so far. */
  stdout(): string
  stderr(): string
  /** Sends a signal and resolves once the process has exited, with how long that took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>
}

/** Starts `activation-emulator` with `args` (and `--port 0` unless given) and waits for its banner. */
export function startCli(args: string[], env: Record<string, string> = {}): Promise<CliServer> {
  const withPort =
    args.includes('--port') || args.includes('-p') || env['ACTIVATION_EMULATOR_PORT'] ? args : [...args, '--port', '0']
  const child = spawn(process.execPath, [BIN, ...withPort], { env: cleanEnv(env) })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8')
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No banner within 30 s. stderr: ${stderr}`)), 30_000)
    exited.then(({ code }) => reject(new Error(`Exited with ${code} before its banner. stderr: ${stderr}`)))
    child.stdout.on('data', (d: string) => {
      stdout += d
      const match = / listening on (\S+)/.exec(stdout)
      if (match && stdout.includes('Ctrl-C stops')) {
        clearTimeout(timer)
        resolve({
          url: match[1]!,
          child,
          stdout: () => stdout,
          stderr: () => stderr,
          async stop(signal = 'SIGINT') {
            const t0 = performance.now()
            child.kill(signal)
            const result = await exited
            return { ...result, ms: performance.now() - t0 }
          },
        })
      }
    })
  })
}
