import type { ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { killGroup, ownPort, runOwned, spawnOwned, type Finished } from './processes.js'
import { WAIT } from './timeouts.js'

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
export type CliRun = Finished

/** Runs the command line to its end (or kills it after `timeoutMs`). */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs: number = WAIT.run,
): Promise<CliRun> {
  return runOwned(process.execPath, [BIN, ...args], { env: cleanEnv(env), timeoutMs })
}

/** A server started from the command line. */
export type CliServer = {
  url: string
  child: ChildProcess
  /** Everything written to stdout so far. */
  stdout(): string
  stderr(): string
  /** Sends a signal (to the server alone) and resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/**
 * Starts `activation-emulator` with `args` (and `--port 0` unless given) and waits up to WAIT.banner
 * for its banner; a server that shows none by then is killed.
 */
export function startCli(args: string[], env: Record<string, string> = {}): Promise<CliServer> {
  const withPort =
    args.includes('--port') || args.includes('-p') || env['ACTIVATION_EMULATOR_PORT'] ? args : [...args, '--port', '0']
  const child = spawnOwned(process.execPath, [BIN, ...withPort], { env: cleanEnv(env) })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8')
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child)
      reject(new Error(`No banner within ${WAIT.banner} ms. stderr: ${stderr}`))
    }, WAIT.banner)
    exited.then(({ code }) => reject(new Error(`Exited with ${code} before its banner. stderr: ${stderr}`)))
    child.stdout.on('data', (d: string) => {
      stdout += d
      const match = / listening on (\S+)/.exec(stdout)
      if (match && stdout.includes('Ctrl-C stops')) {
        clearTimeout(timer)
        ownPort(child, Number(new URL(match[1]!).port))
        resolve({
          url: match[1]!,
          child,
          stdout: () => stdout,
          stderr: () => stderr,
          async stop(signal = 'SIGINT') {
            child.kill(signal)
            return await exited
          },
        })
      }
    })
  })
}
