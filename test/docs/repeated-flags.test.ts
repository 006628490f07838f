import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { dumpFlags, openApiFlags, recordFlags, serveFlags, verifyFlags } from '../../src/node/cli/flags.js'

// docs/command-line.md names the flags that repeat: every flag of every command that takes an array.
describe('the flags that repeat', () => {
  it('are the ones docs/command-line.md names', () => {
    const repeating = new Set(
      [serveFlags, dumpFlags, recordFlags, openApiFlags, verifyFlags].flatMap((table) =>
        Object.entries(table)
          .filter(([, options]) => options.array === true)
          .map(([name]) => name),
      ),
    )
    const guide = readFileSync(new URL('../../docs/command-line.md', import.meta.url), 'utf8')
    const sentence = /[^.;]*repeat, one value each time: ([^.]+)\./.exec(guide)?.[1] ?? ''
    const named = new Set([...sentence.matchAll(/`--([a-z-]+)`/g)].map((m) => m[1]))
    expect(named).toEqual(repeating)
  })
})
