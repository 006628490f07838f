import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { guideFiles, readDocBlocks, ROOT } from '../support/doc-blocks.js'

// The prose that quotes an output (`ask again with &next=...`) names what that output shows: the
// examples test compares the output with what its command prints, and this, the prose with the output.

/** Each `&next=<id>` the prose of a guide names, outside code blocks, with its line. */
function nextIdsInProse(text: string): { id: string; line: number }[] {
  let inFence = false
  return text.split('\n').flatMap((line, i) => {
    if (/^\s*```/.test(line)) inFence = !inFence
    if (inFence) return []
    return [...line.matchAll(/`[^`\n]*[?&]next=([A-Za-z0-9_-]+)[^`\n]*`/g)].map((m) => ({ id: m[1]!, line: i + 1 }))
  })
}

describe("the guides' prose", () => {
  it('names the next id the output above it shows', () => {
    const wrong: string[] = []
    for (const file of guideFiles()) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      const outputs = readDocBlocks(file, text).filter((b) => b.kind === 'output')
      for (const { id, line } of nextIdsInProse(text)) {
        const above = outputs.findLast((b) => b.line < line)
        if (!above?.source.includes(`"next":"${id}"`))
          wrong.push(`${file}:${line}: next=${id} is not the next of the output above it`)
      }
    }
    expect(wrong).toEqual([])
  })
})
