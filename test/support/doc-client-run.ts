import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ReportCard } from '../../src/index.js'
import { readDocBlocks, ROOT, type DocBlock } from './doc-blocks.js'
import { runOwned } from './processes.js'

/** The line a guide's block is made to print its emulator's report card on. */
const REPORT_LINE = 'report card: '

/** The one TypeScript block of `file` that holds `marker`. */
export function guideBlock(file: string, marker: string): DocBlock {
  const blocks = readDocBlocks(file).filter((b) => b.kind === 'typescript' && b.source.includes(marker))
  if (blocks.length !== 1) throw new Error(`${file} has ${blocks.length} TypeScript blocks with ${marker}, not one`)
  return blocks[0]!
}

/**
 * Runs a guide's TypeScript block as written, with this repository's source for the package, and
 * answers the report card of its emulator (named `emulator`) made just before its last
 * `server.close()`, with what it printed besides.
 */
export async function reportOfBlock(source: string): Promise<{ card: ReportCard; printed: string }> {
  const close = source.lastIndexOf('server.close()')
  if (close < 0) throw new Error('the block never closes its server: nowhere to read its report card')
  const src = (path: string) => pathToFileURL(join(ROOT, path)).href
  const program = `${source.slice(0, close)}console.log(${JSON.stringify(REPORT_LINE)} + JSON.stringify(emulator.report()))\n${source.slice(close)}`
    .replaceAll("from 'activation-emulator/contract'", `from '${src('src/contract.ts')}'`)
    .replaceAll("from 'activation-emulator'", `from '${src('src/index.ts')}'`)
  // Its own folder, with the repository's node_modules: msw and tsx resolve as they do in a project.
  const dir = mkdtempSync(join(tmpdir(), 'ae-doc-client-'))
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
    writeFileSync(join(dir, 'block.mts'), program)
    const run = await runOwned(process.execPath, ['--import', 'tsx', 'block.mts'], { cwd: dir })
    const line = run.stdout.split('\n').find((l) => l.startsWith(REPORT_LINE))
    if (run.code !== 0 || line === undefined) throw new Error(`the block failed (${run.code}): ${run.stderr}`)
    const printed = run.stdout.split('\n').filter((l) => l !== line).join('\n')
    return { card: JSON.parse(line.slice(REPORT_LINE.length)) as ReportCard, printed }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
