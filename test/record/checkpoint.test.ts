import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CHECKPOINT_FORMAT, hashKeys, openCheckpoint, readCheckpoint } from '../../src/node/record/checkpoint.js'

let dir: string
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'checkpoint-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const what = {
  from: 'http://127.0.0.1:1',
  keys: hashKeys(['k']),
  limits: { activations: 1, entries: 1, participants: 1 },
}

describe('the checkpoint', () => {
  it('keeps one page a line, the body as sent when it fits on a line, and reads the pages back in order', () => {
    const file = join(dir, 'c')
    const writer = openCheckpoint(file, { format: CHECKPOINT_FORMAT, ...what, startedAt: '2026-01-01T00:00:00.000Z' })
    const page = (path: string) => ({ account: 0, chain: 'activations' as const, path, status: 200 })
    writer.append(
      { ...page('/a'), body: { activations: [{ id: 'x', n: 1.5 }], next: 'y' } },
      '{"activations":[{"id":"x","n":1.50}],"next":"y"}',
    )
    writer.append(
      { ...page('/b'), body: { activations: [], next: null } },
      '{\n  "activations": [],\n  "next": null\n}',
    )
    writer.close()
    const lines = readFileSync(file, 'utf8').split('\n')
    expect(lines).toHaveLength(4)
    expect(lines[1]).toBe(
      '{"account":0,"chain":"activations","path":"/a","status":200,"body":{"activations":[{"id":"x","n":1.50}],"next":"y"}}',
    )
    expect(readCheckpoint(file, what)).toEqual({
      startedAt: '2026-01-01T00:00:00.000Z',
      pages: [
        { ...page('/a'), body: { activations: [{ id: 'x', n: 1.5 }], next: 'y' } },
        { ...page('/b'), body: { activations: [], next: null } },
      ],
    })
  })

  it('never writes the keys, only their hash', () => {
    expect(hashKeys(['secret-key'])).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(hashKeys(['a', 'b'])).not.toBe(hashKeys(['b', 'a']))
  })
})
