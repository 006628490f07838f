import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, normalize as normalizePath } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  guideFiles,
  headingAnchors,
  readDocBlocks,
  relativeLinks,
  ROOT,
  RUNNABLE,
  where,
  type DocBlock,
} from '../support/doc-blocks.js'
import {
  exampleEnv,
  freePort,
  makeSandbox,
  portFreed,
  startGroup,
  waitFor,
  type DocSandbox,
  type Started,
} from '../support/doc-sandbox.js'
import type { BlockRun } from '../support/doc-block-runner.js'
import { execOwned } from '../support/processes.js'
import { scaled, TEST_MS, WAIT } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

// Every code block of the README and docs/ that a user would run, run as docs/development.md says:
// shell and Python blocks guide by guide against the built command line, TypeScript blocks against
// the packed package, each output the text shows compared with what the block printed.

const guides = guideFiles().map((file) => ({ file, blocks: readDocBlocks(file) }))
const runnable = (b: DocBlock) => RUNNABLE.has(b.kind) && b.notRun === null
const hasPython = spawnSync('python3', ['--version']).status === 0
/**
 * How many blocks may say they are not run, at most: keep it few. Each says where it is run instead
 * (the Jest set-up: .ci/consumers/jest-commonjs, held to the guide by test/docs/jest-setup.test.ts).
 */
const MAX_NOT_RUN = 9

let sandbox: DocSandbox

/** Output as the text shows it: the port the text names, the start-up time as written, no trailing blanks. */
function normalize(output: string, port: number | null): string {
  return (port === null ? output : output.replaceAll(`:${port}`, ':4010'))
    .replace(/ready in [\d.]+ s/g, 'ready in … s')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim()
}

function expectOutput(block: DocBlock, actual: string, port: number | null): void {
  if (block.expected === null) return
  expect(normalize(actual, port), `the output shown after ${where(block)}`).toBe(normalize(block.expected, null))
}

const withoutComments = (source: string) =>
  source
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean)

/** A block that starts the server in the foreground (it runs until stopped): `npx activation-emulator --now ...`. */
function startsServer(block: DocBlock): boolean {
  const lines = withoutComments(block.source)
  return (
    block.kind === 'shell' &&
    lines.length === 1 &&
    /^npx activation-emulator(\s|$)/.test(lines[0]!) &&
    !/[&|;]|\s(dump|openapi)(\s|$)|\s(--version|-v|--help|-h|--list-scenarios)(\s|$)/.test(lines[0]!)
  )
}

/** A shell session that keeps its variables from one block to the next, as a terminal does. */
function shellSession(
  env: NodeJS.ProcessEnv,
  cwd: string,
): { started: Started; run(block: DocBlock, source: string): Promise<string> } {
  const started = startGroup('bash', ['--noprofile', '--norc', '-s'], cwd, env)
  started.child.stdin!.write('set -eo pipefail\n')
  let count = 0
  let from = 0
  return {
    started,
    async run(block, source) {
      const done = `__docs_block_${++count}_done__`
      started.child.stdin!.write(`${source}\nprintf '\\n%s\\n' '${done}'\n`)
      await waitFor(started, () => started.stdout().includes(`\n${done}\n`), `the end of ${where(block)}`)
      const all = started.stdout()
      const at = all.indexOf(`\n${done}\n`)
      const output = all.slice(from, at)
      from = at + done.length + 2
      return output
    },
  }
}

/** Runs a process to its end (or, with `run-for`, for that long) and resolves with its stdout. */
async function runToEnd(
  block: DocBlock,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = sandbox.project,
): Promise<string> {
  const started = startGroup(command, args, cwd, env)
  started.child.stdin!.end()
  try {
    if (block.runForSeconds !== null) {
      const code = await Promise.race([started.exited, sleep(block.runForSeconds * 1000, 'running' as const)])
      if (code !== 'running') expect(code, `${where(block)} exited early: ${started.stderr()}`).toBe(0)
      // Stopped, it must have shown that it works: a poller prints what it found.
      else await waitFor(started, () => started.stdout().trim() !== '', `output from ${where(block)}`, scaled(20_000))
    } else {
      const code = await Promise.race([started.exited, sleep(WAIT.run, 'timeout' as const)])
      expect(code, `${where(block)}: ${started.stderr()}`).toBe(0)
    }
    return started.stdout()
  } finally {
    await started.stop()
  }
}

/** Runs the shell and Python blocks of one guide in order, sharing its server and its shell's variables. */
async function runGuide(file: string, blocks: DocBlock[]): Promise<void> {
  const port = await freePort()
  const env = exampleEnv(sandbox, port)
  // The guide's own folder, with the scratch project's node_modules, and the files its blocks name.
  const scratch = join(sandbox.dir, file.replace(/[/.]/g, '-'))
  mkdirSync(scratch, { recursive: true })
  symlinkSync(join(sandbox.project, 'node_modules'), join(scratch, 'node_modules'))
  for (const block of blocks) if (block.fileName) writeFileSync(join(scratch, block.fileName), block.source)
  let server: Started | null = null
  const session = shellSession(env, scratch)
  try {
    for (const block of blocks) {
      if (!runnable(block) || block.kind === 'typescript' || block.fileName) continue
      const source = block.source.replaceAll('4010', String(port))
      if (startsServer(block)) {
        await server?.stop()
        const started = startGroup('bash', ['-c', source], scratch, env)
        server = started
        await waitFor(started, () => started.stdout().includes('Ctrl-C stops'), `the banner of ${where(block)}`)
        const banner = started.stdout()
        expectOutput(block, banner.slice(0, banner.indexOf('Ctrl-C stops') + 'Ctrl-C stops'.length), port)
      } else if (block.kind === 'python') {
        if (!hasPython) {
          console.log(`${where(block)}: not run, python3 is not installed`)
          continue
        }
        const path = join(scratch, `L${block.line}.py`)
        writeFileSync(path, source)
        expectOutput(block, await runToEnd(block, 'python3', [path], env, scratch), port)
      } else if (block.source.startsWith('#!')) {
        // A script (a CI job's): it runs on its own, starts and stops its own server on the guide's port.
        await server?.stop()
        server = null
        const path = join(scratch, `L${block.line}.sh`)
        writeFileSync(path, source, { mode: 0o755 })
        expectOutput(block, await runToEnd(block, 'bash', [path], env, scratch), port)
        expect(await portFreed(port, WAIT.portFree), `${where(block)} left its server running`).toBe(true)
      } else {
        expectOutput(block, await session.run(block, source), port)
      }
    }
  } finally {
    await session.started.stop('SIGTERM')
    await server?.stop()
  }
}

const tsBlocks = guides.flatMap(({ blocks }) => blocks.filter((b) => runnable(b) && b.kind === 'typescript'))
// A block written as a file for the blocks after it (`<!-- file: -->`) is type-checked, never run on its own.
const isTestFile = (block: DocBlock) => /from 'vitest'/.test(block.source) && block.fileName === null
const blockFile = (block: DocBlock) =>
  `blocks/${block.file.replace(/\.md$/, '').replace(/\//g, '-')}-L${block.line}${isTestFile(block) ? '.test' : ''}.ts`

const scriptBlocks = tsBlocks.filter((b) => !isTestFile(b) && !b.fileName)
let scripts: Promise<Record<string, BlockRun>> | undefined
/** Runs every TypeScript block that is not a test file, once, in one process (test/support/doc-block-runner.ts). */
function runScripts(): Promise<Record<string, BlockRun>> {
  scripts ??= freePort().then(async (port) => {
    const runner = join(ROOT, 'test', 'support', 'doc-block-runner.ts')
    const { stdout } = await execOwned(process.execPath, ['--import', 'tsx', runner, ...scriptBlocks.map(blockFile)], {
      cwd: sandbox.project,
      env: exampleEnv(sandbox, port),
      timeoutMs: TEST_MS.long,
    })
    return JSON.parse(stdout) as Record<string, BlockRun>
  })
  return scripts
}

describe('the examples of the README and docs/', () => {
  beforeAll(() => {
    sandbox = makeSandbox()
    mkdirSync(join(sandbox.project, 'blocks'))
    for (const block of tsBlocks) writeFileSync(join(sandbox.project, blockFile(block)), block.source)
  })
  afterAll(() => rmSync(sandbox.dir, { recursive: true, force: true }))

  it('link to files and headings that exist', () => {
    const broken: string[] = []
    for (const { file } of guides) {
      for (const link of relativeLinks(readFileSync(join(ROOT, file), 'utf8'))) {
        const [path = '', anchor] = link.split('#')
        const target = path === '' ? file : normalizePath(join(dirname(file), path))
        if (!existsSync(join(ROOT, target))) broken.push(`${file}: ${link} (no file ${target})`)
        else if (anchor && !headingAnchors(readFileSync(join(ROOT, target), 'utf8')).has(anchor))
          broken.push(`${file}: ${link} (no heading or anchor #${anchor} in ${target})`)
      }
    }
    expect(broken).toEqual([])
  })

  it(`say why when they are not run, in at most ${MAX_NOT_RUN} blocks`, () => {
    const notRun = guides.flatMap(({ blocks }) => blocks.filter((b) => RUNNABLE.has(b.kind) && b.notRun !== null))
    for (const block of notRun) console.log(`${where(block)}: not run, ${block.notRun}`)
    expect(notRun.length).toBeLessThanOrEqual(MAX_NOT_RUN)
  })

  describe.concurrent('shell and Python, in order, one server and one shell a guide', () => {
    for (const { file, blocks } of guides) {
      if (!blocks.some((b) => runnable(b) && b.kind !== 'typescript')) continue
      it(file, () => runGuide(file, blocks), TEST_MS.longer)
    }
  })

  describe.concurrent('TypeScript, against the packed package', () => {
    it('type-checks, strict', async () => {
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
      await execOwned(process.execPath, [tsc, '-p', 'tsconfig.json'], {
        cwd: sandbox.project,
        timeoutMs: TEST_MS.long,
      }).catch((error: { stdout?: string }) => {
        throw new Error(`tsc found errors in the guides' TypeScript:\n${error.stdout ?? String(error)}`)
      })
    })

    it('the test files pass under Vitest', async () => {
      if (!tsBlocks.some(isTestFile)) return
      const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
      const env = exampleEnv(sandbox, await freePort())
      await execOwned(process.execPath, [vitest, 'run', '--root', sandbox.project, 'blocks/'], {
        cwd: sandbox.project,
        env,
        timeoutMs: TEST_MS.long,
      }).catch((error: { stdout?: string; stderr?: string }) => {
        throw new Error(`Vitest failed:\n${error.stdout ?? ''}\n${error.stderr ?? String(error)}`)
      })
    })

    for (const block of scriptBlocks) {
      it(`${where(block)} runs`, async () => {
        const run = (await runScripts())[blockFile(block)]
        expect(run?.error ?? null, `${where(block)} failed`).toBeNull()
        expectOutput(block, run!.output, null)
      })
    }
  })
})
