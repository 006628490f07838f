import { describe, expect, it } from 'vitest'
import { guideFiles, headingAnchors, readDocBlocks, relativeLinks, where } from '../support/doc-blocks.js'

const guide = [
  '# A guide',
  '',
  '```sh',
  'npx activation-emulator --now 2026-06-01T12:00:00Z',
  '```',
  '',
  '```text',
  'activation-emulator 0.1.0 listening on http://127.0.0.1:4010',
  '```',
  '',
  'Some prose, then a block that is not run:',
  '',
  '<!-- not-run: it needs a browser -->',
  '',
  '```ts',
  'await setupWorker().start()',
  '```',
  '',
  'Prose.',
  '',
  '```text',
  'its output: prose may stand between',
  '```',
  '',
  '```text',
  'a second output of the same block',
  '```',
  '',
  '<!-- run-for: 4 -->',
  '```python',
  'while True: pass',
  '```',
  '',
  '<!-- file: mine.ts -->',
  '```ts',
  'export default {}',
  '```',
].join('\n')

describe('the blocks of a guide', () => {
  const blocks = readDocBlocks('guide.md', guide)

  it('are read in order, with their language, line and source', () => {
    expect(blocks.map((b) => [b.kind, b.line])).toEqual([
      ['shell', 3],
      ['output', 7],
      ['typescript', 15],
      ['output', 21],
      ['output', 25],
      ['python', 30],
      ['typescript', 35],
    ])
    expect(blocks[0]!.source).toBe('npx activation-emulator --now 2026-06-01T12:00:00Z')
  })

  it('take the first text block after them as their output, wherever the prose puts it', () => {
    expect(blocks[0]!.expected).toBe('activation-emulator 0.1.0 listening on http://127.0.0.1:4010')
    expect(blocks[1]!.outputOf).toBe(3)
    expect(blocks[2]!.expected).toBe('its output: prose may stand between')
    expect(blocks[3]!.outputOf).toBe(15)
  })

  it('leave a second text block the output of none', () => {
    expect(blocks[4]!.outputOf).toBeNull()
  })

  it('read the markers on the lines before them', () => {
    expect(blocks[2]!.notRun).toBe('it needs a browser')
    expect(blocks[0]!.notRun).toBeNull()
    expect(blocks[5]!.runForSeconds).toBe(4)
    expect(blocks[6]!.fileName).toBe('mine.ts')
  })
})

describe('the guides', () => {
  it('show every output after the block it is the output of, so that the examples test compares it', () => {
    const unmatched = guideFiles().flatMap((file) =>
      readDocBlocks(file).filter((b) => b.kind === 'output' && b.outputOf === null).map(where),
    )
    expect(unmatched, 'text blocks that are the output of no block that runs').toEqual([])
  })
})

describe('links', () => {
  it('are the relative targets outside code', () => {
    const text = 'See [a](docs/a.md#x), ![b](b.png), [c](https://example.test) and `[d](not.md)`.'
    expect(relativeLinks(text)).toEqual(['docs/a.md#x', 'b.png'])
  })

  it('find headings by the anchors GitHub makes', () => {
    const anchors = headingAnchors('# The guide\n## In CI\n### A page: `npm run bench:pages`\n## In CI\n')
    expect([...anchors]).toEqual(['the-guide', 'in-ci', 'a-page-npm-run-benchpages', 'in-ci-1'])
  })
})
