import { execFileSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { BIN, cleanEnv } from './cli.js'
import { ROOT } from './doc-blocks.js'
import { signalGroup } from './process-registry.js'
import { spawnOwned } from './processes.js'
import { WAIT } from './timeouts.js'

/**
 * Where the guides' examples run: a scratch project outside the repository whose
 * node_modules/activation-emulator is the packed tarball, unpacked, and whose other modules are links
 * to the repository's (msw, tsx, vitest...: no network install); node_modules/.bin/activation-emulator
 * runs the built command line. `shims` goes first on PATH (see docs/development.md).
 */
export type DocSandbox = { dir: string; project: string; shims: string }

/** Makes the scratch project: `npm pack` once (dist/ is already built), then the links and the shims. */
export function makeSandbox(): DocSandbox {
  const dir = mkdtempSync(join(tmpdir(), 'ae-docs-'))
  const project = join(dir, 'project')
  const shims = join(dir, 'shims')
  const modules = join(project, 'node_modules')
  const unpacked = join(modules, 'activation-emulator')
  mkdirSync(unpacked, { recursive: true })
  mkdirSync(join(modules, '.bin'))
  mkdirSync(shims)
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const [{ filename }] = JSON.parse(packed) as [{ filename: string }]
  execFileSync('tar', ['xzf', join(dir, filename), '-C', unpacked, '--strip-components=1'])
  const own = join(ROOT, 'node_modules')
  for (const name of readdirSync(own)) {
    if (name === 'activation-emulator' || name.startsWith('.')) continue
    symlinkSync(join(own, name), join(modules, name))
  }
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'docs-examples', version: '1.0.0', private: true, type: 'module' }),
  )
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
      },
      include: ['blocks'],
    }),
  )
  const script = (path: string, body: string) => writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 })
  const realNpx = execFileSync('sh', ['-c', 'command -v npx'], { encoding: 'utf8' }).trim()
  const realNpm = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim()
  const realCurl = execFileSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).trim()
  script(join(modules, '.bin', 'activation-emulator'), `exec node '${BIN}' "$@"`)
  // `npx activation-emulator` is the built command line, as it is in a project that installed it.
  script(
    join(shims, 'npx'),
    `if [ "$1" = activation-emulator ]; then shift; exec node '${BIN}' "$@"; fi\nexec '${realNpx}' "$@"`,
  )
  // `npm test` in a recipe stands for the user's own tests: a client that reads two pages.
  script(
    join(shims, 'npm'),
    [
      'if [ "$1" = test ]; then',
      `  '${realCurl}' -sf -H "Authorization: Api-Key $API_KEY" "$API_URL/activations/list?limit=5" > /dev/null`,
      `  '${realCurl}' -sf -H "Authorization: Api-Key $API_KEY" "$API_URL/experience/participants?limit=5" > /dev/null`,
      '  echo "the client tests: 2 passed"; exit 0',
      'fi',
      `exec '${realNpm}' "$@"`,
    ].join('\n'),
  )
  // A curl that fails on an HTTP error status unless the example already chose (-f, --fail, or a -w that
  // prints the status): a broken URL fails the test.
  script(
    join(shims, 'curl'),
    [
      'for a in "$@"; do case "$a" in --fail|--fail-with-body|-[!-]*f*|*%{http_code}*) exec ' +
        `'${realCurl}'` +
        ' "$@";; esac; done',
      `exec '${realCurl}' --fail-with-body "$@"`,
    ].join('\n'),
  )
  return { dir, project, shims }
}

/** The environment of an example: a clean one, the shims first on PATH, `port` the default. */
export function exampleEnv(sandbox: DocSandbox, port: number): NodeJS.ProcessEnv {
  return cleanEnv({
    PATH: `${sandbox.shims}:${process.env['PATH'] ?? ''}`,
    ACTIVATION_EMULATOR_PORT: String(port),
    npm_config_update_notifier: 'false',
  })
}

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(true))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)))
  })
}

/** Waits until the port is free or `ms` have passed; resolves with whether it is free. */
export async function portFreed(port: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (!(await listening(port))) return true
    await sleep(100)
  }
  return false
}

/** A process started in a group of its own, with what it wrote. */
export type Started = {
  child: ChildProcess
  stdout(): string
  stderr(): string
  exited: Promise<number | null>
  /** Signals the whole group, then kills what is left after `ms`; resolves once the leader has exited. */
  stop(signal?: NodeJS.Signals, ms?: number): Promise<void>
}

/** Starts `command` in a process group of its own, so that everything it starts can be stopped with it. */
export function startGroup(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Started {
  const child = spawnOwned(command, args, { cwd, env })
  let out = ''
  let err = ''
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d))
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async stop(signal = 'SIGINT', ms = WAIT.stop) {
      signalGroup(child.pid!, signal)
      await Promise.race([exited, sleep(ms)])
      signalGroup(child.pid!, 'SIGKILL')
      await exited
    },
  }
}

/** Resolves once `test` holds of what the process wrote, or rejects when it exits first or `ms` pass. */
export async function waitFor(
  started: Started,
  test: () => boolean,
  what: string,
  ms: number = WAIT.run,
): Promise<void> {
  const end = Date.now() + ms
  let gone = false
  void started.exited.then(() => (gone = true))
  while (!test()) {
    if (gone) throw new Error(`Exited before ${what}.\nstdout:\n${started.stdout()}\nstderr:\n${started.stderr()}`)
    if (Date.now() > end) throw new Error(`No ${what} within ${ms} ms.\nstderr:\n${started.stderr()}`)
    await sleep(25)
  }
}
