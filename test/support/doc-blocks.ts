import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** What a block is run as, from its fence's language. */
export type BlockKind = 'shell' | 'typescript' | 'python' | 'output' | 'other'

/** A fenced code block of a guide, with what the text around it says about running it. */
export type DocBlock = {
  /** The guide, relative to the root (`README.md`, `docs/control-and-ci.md`). */
  file: string
  /** The line of the opening fence, from 1. */
  line: number
  /** The fence's language, as written (`sh`, `ts`, `text`...). */
  lang: string
  kind: BlockKind
  source: string
  /** Why it is not run, from `<!-- not-run: why -->` just before it; null when it is run. */
  notRun: string | null
  /** From `<!-- run-for: N -->`: a block that runs until stopped, stopped after N seconds. */
  runForSeconds: number | null
  /** From `<!-- file: name -->`: the block is a file the blocks after it use, written under that name. */
  fileName: string | null
  /** The output the text shows for it: the first ```text block after it, before the next block that runs, wherever the prose puts it. */
  expected: string | null
  /** For a ```text block: the line of the block whose output it shows; null when it shows none's. */
  outputOf: number | null
}

const KINDS: Record<string, BlockKind> = {
  sh: 'shell',
  bash: 'shell',
  ts: 'typescript',
  typescript: 'typescript',
  python: 'python',
  py: 'python',
  text: 'output',
}

/** The kinds of block a test runs. */
export const RUNNABLE: ReadonlySet<BlockKind> = new Set(['shell', 'typescript', 'python'])

/** The guides whose examples `npm test` runs: the README and every file of docs/. */
export function guideFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`)
  return ['README.md', ...docs]
}

/** Every fenced code block of a guide, in order, each with its markers and the output shown for it. */
export function readDocBlocks(file: string, text = readFileSync(join(ROOT, file), 'utf8')): DocBlock[] {
  const lines = text.split('\n')
  const blocks: DocBlock[] = []
  let comments: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const fence = /^(\s*)(`{3,})([\w-]*)\s*$/.exec(line)
    if (!fence) {
      if (/^\s*<!--.*-->\s*$/.test(line)) comments.push(line.trim())
      else if (line.trim() !== '') comments = []
      continue
    }
    const [, indent = '', ticks = '```', lang = ''] = fence
    const body: string[] = []
    let j = i + 1
    while (j < lines.length && !new RegExp(`^\\s*${ticks}\\s*$`).test(lines[j]!)) {
      body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!)
      j++
    }
    const kind = KINDS[lang] ?? 'other'
    const marker = (name: string) =>
      comments.map((c) => new RegExp(`^<!--\\s*${name}:\\s*(.*?)\\s*-->$`).exec(c)?.[1]).find((m) => m !== undefined)
    // A text block shows the output of the last block that runs before it, however much prose stands between.
    const runs = blocks.findLast((b) => RUNNABLE.has(b.kind))
    const shows = kind === 'output' && runs && runs.expected === null ? runs : null
    if (shows) shows.expected = body.join('\n')
    const runFor = marker('run-for')
    const fileName = marker('file')
    blocks.push({
      file,
      line: i + 1,
      lang,
      kind,
      source: body.join('\n'),
      notRun: marker('not-run') ?? null,
      runForSeconds: runFor === undefined ? null : Number(runFor),
      fileName: fileName ?? null,
      expected: null,
      outputOf: shows?.line ?? null,
    })
    comments = []
    i = j
  }
  return blocks
}

/** Where a block is, as an editor links it: `docs/live-world.md:42`. */
export function where(block: DocBlock): string {
  return `${relative(ROOT, join(ROOT, block.file))}:${block.line}`
}

/** The anchors of a guide: its headings', as GitHub makes them (`## In CI` is `#in-ci`), and each `<a id="...">`. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>()
  let inFence = false
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) inFence = !inFence
    if (!inFence) for (const m of line.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(m[1]!)
    const heading = inFence ? null : /^#{1,6}\s+(.*)$/.exec(line)
    if (!heading) continue
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-')
    let anchor = slug
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`
    anchors.add(anchor)
  }
  return anchors
}

/** Every relative link of a guide (`[text](docs/x.md#y)`, `![alt](x.png)`), outside code. */
export function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((to) => !/^[a-z]+:/.test(to))
}
