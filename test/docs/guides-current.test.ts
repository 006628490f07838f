import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { guideFiles, ROOT } from '../support/doc-blocks.js'

// A user guide says how to do things as they are today. Where a figure came from (a commit, an
// issue) is history, and history goes to docs/development.md or docs/decisions/.

/** The user guides: the README and docs/*.md, but development.md, which may tell the project's history. */
const USER_GUIDES = guideFiles().filter((file) => file !== 'docs/development.md')

/** A commit as git abbreviates it: 7 to 40 lower-case hex digits, word-bounded, holding a digit and a letter. */
const COMMIT = /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/g
/** An issue or pull request by number: "issue 12", "issues 3", "issue-12", "#12", "PR 12", "pull request 12". */
const ISSUE = /\b(?:issues?|pull requests?|PRs?)[\s-]+#?\d+\b|(?<![\w&/])#\d+\b/gi

/** A guide's prose: its fenced blocks (commands, code, outputs that may print hashes) blanked, lines kept. */
function prose(text: string): string {
  let fence: string | null = null
  return text
    .split('\n')
    .map((line) => {
      const open = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
      if (fence === null && open) fence = open
      else if (fence !== null && open && open[0] === fence[0] && open.length >= fence.length) fence = null
      else if (fence === null) return line
      return ''
    })
    .join('\n')
}

/** Each match of a pattern in a guide's prose, as `file:line: match`. */
function found(file: string, text: string, pattern: RegExp): string[] {
  return prose(text)
    .split('\n')
    .flatMap((line, i) => [...line.matchAll(pattern)].map((m) => `${file}:${i + 1}: ${m[0]}`))
}

describe('what counts as history', () => {
  it('finds commits and issues in prose', () => {
    const text = 'Measured at 1839e2a (see issue 45, issue-12 and #7), main at 3ab3e26f0c.'
    expect(found('x.md', text, COMMIT)).toEqual(['x.md:1: 1839e2a', 'x.md:1: 3ab3e26f0c'])
    expect(found('x.md', text, ISSUE)).toEqual(['x.md:1: issue 45', 'x.md:1: issue-12', 'x.md:1: #7'])
  })

  it('leaves dates, numbers, words, hex values and code blocks alone', () => {
    const text = [
      'seed 20260601 on 2026-06-01, 0xffffffff, a colour #1a2b3c, deadbeef and facade, [in CI](a.md#in-ci).',
      '```text',
      'sha256 3f786850e387550fdab836ed7e6dc881de23001b, request #3',
      '```',
    ].join('\n')
    expect(found('x.md', text, COMMIT)).toEqual([])
    expect(found('x.md', text, ISSUE)).toEqual([])
  })
})

describe.each(USER_GUIDES)('%s', (file) => {
  const text = readFileSync(join(ROOT, file), 'utf8')

  it('names no commit', () => {
    expect(found(file, text, COMMIT), 'move the history to docs/development.md or docs/decisions/').toEqual([])
  })

  it('names no issue or pull request', () => {
    expect(found(file, text, ISSUE), 'move the history to docs/development.md or docs/decisions/').toEqual([])
  })
})
