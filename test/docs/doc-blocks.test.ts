import { describe, expect, it } from 'vitest'
import { headingAnchors, readDocBlocks, relativeLinks } from '../support/doc-blocks.js'

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
  'not its output: prose stands between',
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
      ['python', 26],
      ['typescript', 31],
    ])
    expect(blocks[0]!.source).toBe('npx activation-emulator --now 2026-06-01T12:00:00Z')
  })

  it('take a text block right after them as their output, and no other', () => {
    expect(blocks[0]!.expected).toBe('activation-emulator 0.1.0 listening on http://127.0.0.1:4010')
    expect(blocks[2]!.expected).toBeNull()
  })

  it('read the markers on the lines before them', () => {
    expect(blocks[2]!.notRun).toBe('it needs a browser')
    expect(blocks[0]!.notRun).toBeNull()
    expect(blocks[4]!.runForSeconds).toBe(4)
    expect(blocks[5]!.fileName).toBe('mine.ts')
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
