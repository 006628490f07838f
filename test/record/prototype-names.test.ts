import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordWorld } from '../../src/node/record/record-world.js'
import { createRemoteClient } from '../../src/node/remote/client.js'
import { expectFaithful } from '../support/hostile-check.js'
import { startHostileUpstream, type HostileUpstream } from '../support/hostile-upstream.js'
import { runCli } from '../support/cli.js'

// Issue 35, point 6: ids and fields named like Object.prototype's properties, and ids that are not
// URL-safe (issue 36: `+`, `&`, `%` in an id and so in `next`), are recorded and served back as sent.

const LIMITS = { activations: 2, entries: 2, participants: 2 }
const PROTO_IDS = ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf', 'a+b&c=d%20e f']

let dir = ''
let upstream: HostileUpstream | undefined
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'proto-names-'))
})
afterEach(async () => {
  await upstream?.close()
  upstream = undefined
  rmSync(dir, { recursive: true, force: true })
})

describe('record, with ids and fields named like Object.prototype properties', () => {
  it('records activations and participants whose ids are constructor, toString, __proto__... and serves every page back as sent', async () => {
    upstream = await startHostileUpstream({ ids: PROTO_IDS, protoFields: true, premium: true })
    const out = join(dir, 'w.json')
    const client = createRemoteClient({ baseUrl: upstream.url, rps: Infinity })
    const made = await recordWorld({
      client,
      apiKeys: [upstream.key],
      limits: LIMITS,
      checkpoint: `${out}.checkpoint`,
      out,
    })
    expect(made.dump.activations.map((a) => a.id).sort()).toEqual([...PROTO_IDS].sort())
    expect(made.problems).toEqual([])
    expect(made.dump.participants.map((p) => p.id).sort()).toEqual(['__proto__', 'constructor', 'toString'])
    expect(await expectFaithful(out, upstream, LIMITS)).toBeGreaterThan(20)
  })

  it('anonymizes such a recording: the same ids, the fields kept, the e-mails replaced', async () => {
    upstream = await startHostileUpstream({ ids: PROTO_IDS, protoFields: true })
    const out = join(dir, 'w.json')
    const client = createRemoteClient({ baseUrl: upstream.url, rps: Infinity })
    const made = await recordWorld({
      client,
      apiKeys: [upstream.key],
      limits: LIMITS,
      checkpoint: `${out}.checkpoint`,
      out,
      anonymize: { seed: 1 },
    })
    expect(made.dump.activations.map((a) => a.id).sort()).toEqual([...PROTO_IDS].sort())
    expect(made.problems).toEqual([])
    const text = readFileSync(out, 'utf8')
    expect(text).not.toContain('p0@example.com')
    expect(text).toContain('"__proto__":{"polluted":true}')
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('through the built command line: exit 0 and a world that serves every page back', async () => {
    upstream = await startHostileUpstream({ ids: PROTO_IDS, protoFields: true })
    const out = join(dir, 'w.json')
    const run = await runCli([
      'record',
      '--from',
      upstream.url,
      '--api-key',
      upstream.key,
      '--rps',
      '0',
      '--limits',
      '2,2,2',
      '-o',
      out,
    ])
    expect(run.stderr).not.toContain('not iterable')
    expect(run.code).toBe(0)
    expect(readFileSync(out, 'utf8')).toContain('"constructor"')
    await expectFaithful(out, upstream, LIMITS)
  })
})
