/**
 * The walker of `record` against a scripted client (no server): each answer an upstream can break its
 * rules with is refused with a line naming the request, the options are checked before anything is
 * asked, and each list is asked with the path the spec gives. Found missing by mutation testing
 * (npm run test:mutation).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FILTER_TYPES } from '../../src/contract/enums.js'
import { TYPE_RULES } from '../../src/contract/type-rules.js'
import type { RemoteClient } from '../../src/node/remote/client.js'
import type { RecordOptions, RecordProgress } from '../../src/node/record/record-options.js'
import { recordAccounts } from '../../src/node/record/recorder.js'
import { listPage, scripted, scriptedWorld } from '../support/scripted-client.js'

const LIMITS = { activations: 1, entries: 1, participants: 1 }
const world = scriptedWorld

let dir = ''
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'walk-answers-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const record = (client: RemoteClient, options: Partial<RecordOptions> = {}) =>
  recordAccounts({ client, apiKeys: ['KEY'], limits: LIMITS, checkpoint: join(dir, 'ckpt'), ...options })

describe('recordAccounts asks', () => {
  it("each list with the spec's path and filters, the completed list for trivia, pickem and scavenger, the winners for trivia and pickem", async () => {
    const client = scripted(
      world({
        '/activations/list?limit=1': { activations: [{ id: 'a1', type: 'trivia' }], next: 'n 1' },
        '/activations/list?limit=1&next=n%201': { activations: [{ id: 's1', type: 'scavenger' }], next: 'n2' },
        '/activations/list?limit=1&next=n2': { activations: [{ id: 'q1', type: 'quiz' }], next: null },
        '/activations/s1?limit=1': { entries: [], next: null },
        '/activations/s1?is_completed=1&limit=1': { entries: [], next: null },
        '/activations/q1?limit=1': { entries: [], next: null },
      }),
    )
    const progress: RecordProgress[] = []
    const recording = await record(client, { onProgress: (p) => progress.push(p) })
    expect([...client.asked].sort()).toEqual(
      [
        '/activations/list?limit=1',
        '/activations/list?limit=1&next=n%201',
        '/activations/list?limit=1&next=n2',
        '/activations/list?state=not_started&limit=1',
        '/activations/list?state=running&limit=1',
        '/activations/list?state=ended&limit=1',
        '/activations/a1?limit=1',
        '/activations/a1?is_completed=1&limit=1',
        '/activations/a1?is_winner=1&limit=1',
        '/activations/s1?limit=1',
        '/activations/s1?is_completed=1&limit=1',
        '/activations/q1?limit=1',
        '/experience/participants?limit=1',
      ]
        .map((path) => `KEY ${path}`)
        .sort(),
    )
    expect(recording.serverDate).toBe('2026-06-01T12:00:00.000Z')
    expect(recording.from).toBe('http://upstream.test')
    expect(recording.accounts[0]!.premium).toBe(true)
    expect(Object.keys(recording.accounts[0]!.completed)).toEqual(['a1', 's1'])
    expect(Object.keys(recording.accounts[0]!.winners)).toEqual(['a1'])
    expect(Object.keys(recording.accounts[0]!.states ?? {})).toEqual(['not_started', 'running', 'ended'])
    // 3 activations, 1 + 0 + 0 entries, 1 participant; the filters' pages are not records.
    expect(progress.at(-1)).toMatchObject({
      pages: 13,
      records: 5,
      activations: { listed: 3, done: 3 },
      account: 1,
      accounts: 1,
    })
    expect(progress.every((p) => p.rate >= 0)).toBe(true)
  })
  it.each(FILTER_TYPES)(
    'the filtered lists of a %s activation as TYPE_RULES has them: is_completed=1 where it has a completion, is_winner=1 where its winners answered every question correctly',
    async (type) => {
      const entries = listPage('entries', [])
      const client = scripted(
        world({
          '/activations/list?limit=1': listPage('activations', [{ id: 'a1', type }]),
          '/activations/a1?limit=1': entries,
          '/activations/a1?is_completed=1&limit=1': entries,
          '/activations/a1?is_winner=1&limit=1': entries,
        }),
      )
      const account = (await record(client)).accounts[0]!
      const rules = TYPE_RULES[type]
      expect(Object.keys(account.entries)).toEqual(['a1'])
      expect(Object.keys(account.completed)).toEqual(rules.completion === null ? [] : ['a1'])
      expect(Object.keys(account.winners)).toEqual(rules.winners === 'allCorrect' ? ['a1'] : [])
    },
  )
  it('the participants once, and records a 403 as an account without them', async () => {
    const client = scripted(world({ '/experience/participants?limit=1': { status: 403, text: '{"error":"Premium"}' } }))
    const recording = await record(client)
    expect(recording.accounts[0]).toMatchObject({ premium: false, participants: [] })
    expect(client.asked.filter((a) => a.includes('participants'))).toHaveLength(1)
  })
})

describe('recordAccounts refuses, naming the request', () => {
  const fails = async (over: Record<string, unknown>, message: string, keys = ['KEY']) => {
    await expect(record(scripted(world(over)), { apiKeys: keys, restart: true })).rejects.toThrow(message)
  }
  it('an error status, with the key taken out of its text', async () => {
    await fails(
      { '/activations/list?limit=1': { status: 500, text: '{"error":"bad key KEY"}' } },
      'Failed to record /activations/list?limit=1 of account 1: the upstream answered 500 {"error":"bad key <key>"}',
    )
  })
  it('an answer without its list, a next that is neither a string nor null, a next given twice, an activation without an id', async () => {
    await fails(
      { '/activations/list?limit=1': { items: [], next: null } },
      'Failed to record /activations/list?limit=1 of account 1: the answer has no activations array',
    )
    await fails({ '/activations/list?limit=1': null }, 'the answer has no activations array')
    await fails(
      { '/activations/a1?limit=1': { entries: {}, next: null } },
      'Failed to record /activations/a1?limit=1 of account 1: the answer has no entries array',
    )
    await fails(
      { '/activations/list?limit=1': { activations: [], next: 7 } },
      'Failed to record /activations/list?limit=1 of account 1: its next is neither a string nor null',
    )
    await fails(
      {
        '/activations/list?limit=1': { activations: [{ id: 'a1', type: 'trivia' }], next: 'x' },
        '/activations/list?limit=1&next=x': { activations: [], next: 'x' },
      },
      'Failed to record /activations/list?limit=1&next=x of account 1: its next x was given before',
    )
    for (const item of [{ type: 'trivia' }, { id: '' }, { id: 3 }, null]) {
      await fails(
        { '/activations/list?limit=1': { activations: [item], next: null } },
        'Failed to record /activations/list?limit=1 of account 1: an activation has no id',
      )
    }
  })
  it('a failure before the first page leaves no checkpoint; one after it keeps it', async () => {
    await expect(record(scripted({}), { restart: true })).rejects.toThrow('the upstream answered 404')
    expect(existsSync(join(dir, 'ckpt'))).toBe(false)
    await expect(
      record(scripted(world({ '/activations/a1?limit=1': { status: 500, text: '{}' } })), { restart: true }),
    ).rejects.toThrow('answered 500')
    expect(existsSync(join(dir, 'ckpt'))).toBe(true)
  })
})

describe('recordAccounts checks its options before asking anything', () => {
  it('limits from 1 to the maxima, whole numbers', async () => {
    for (const [limits, message] of [
      [{ ...LIMITS, activations: 0 }, 'The activations limit must be a whole number from 1 to 100, got 0'],
      [{ ...LIMITS, activations: 101 }, 'The activations limit must be a whole number from 1 to 100, got 101'],
      [{ ...LIMITS, entries: 1.5 }, 'The entries limit must be a whole number from 1 to 1000, got 1.5'],
      [{ ...LIMITS, participants: 101 }, 'The participants limit must be a whole number from 1 to 100, got 101'],
    ] as const) {
      const client = scripted(world())
      await expect(record(client, { limits })).rejects.toThrow(message)
      expect(client.asked).toEqual([])
    }
    const client = scripted({})
    await record(client, { limits: { activations: 100, entries: 1000, participants: 100 } }).catch(() => {})
    expect(client.asked[0]).toBe('KEY /activations/list?limit=100')
  })
  it('at least one key, and resume or restart, not both', async () => {
    await expect(record(scripted(world()), { apiKeys: [] })).rejects.toThrow('At least one API key is needed to record')
    await expect(record(scripted(world()), { resume: true, restart: true })).rejects.toThrow(
      'Resume or restart a recording, not both',
    )
  })
  it('restart deletes the checkpoint there was; without it, an existing checkpoint is not overwritten', async () => {
    const checkpoint = join(dir, 'ckpt')
    writeFileSync(checkpoint, 'an old checkpoint\n')
    await expect(record(scripted(world()))).rejects.toThrow()
    expect(readFileSync(checkpoint, 'utf8')).toBe('an old checkpoint\n')
    await record(scripted(world()), { restart: true })
    expect(readFileSync(checkpoint, 'utf8')).toMatch(/^\{"format":"activation-emulator\/record-checkpoint@1"/)
  })
})
