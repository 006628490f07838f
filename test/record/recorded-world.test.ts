import { getResponse } from 'msw'
import { storeOf } from '../support/store-of.js'
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { parseWorldDump, worldDumpChunks } from '../../src/world/dump.js'
import { worldFromRecording } from '../../src/world/from-recording.js'
import { pagesOf, type Recording } from '../../src/world/recording.js'
import { call, NOW_ISO } from '../support/api.js'
import { filteredPaths } from '../support/filtered-paths.js'
import { recordEmulator } from '../support/record-emulator.js'
import { TEST_MS } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

// A built-in scenario recorded from an emulator, then served from the recorded world: every page the
// recording read, and every filter of every endpoint, must come back byte for byte. The recording is
// made by `record`'s own walker, through the emulator's handlers.

async function ask(emulator: Emulator, path: string, key: string): Promise<{ status: number; text: string }> {
  const request = new Request(`${emulator.baseUrl}${path}`, { headers: { authorization: `Api-Key ${key}` } })
  const response = await getResponse(emulator.handlers, request)
  if (!response) throw new Error(`No handler answered ${path}`)
  return { status: response.status, text: await response.text() }
}

describe.each(['default', 'every-type', 'edge-cases', 'multi-account', 'no-premium', 'undocumented-types'])(
  'the %s scenario, recorded from an emulator and served from the recording',
  (scenario) => {
    it('answers every page it recorded and every filter with the same bytes', async () => {
      const upstream = await createEmulator({ scenario, now: NOW_ISO })
      const keys = upstream.scenario.accounts.map((a) => a.apiKeys[0]!)
      const recording = await recordEmulator(upstream, keys)
      const made = worldFromRecording(recording)
      expect(made.problems).toEqual([])
      expect(made.oddFields).toEqual([])
      expect(made.unknownFields).toEqual([])
      expect(made.dump.builtAt <= NOW_ISO).toBe(true)
      // Through JSON and the dump's own checks, as `--data world.json` reads it.
      const served = await createEmulator({ data: parseWorldDump(JSON.parse(JSON.stringify(made.dump))) })
      let compared = 0
      for (const [a, account] of recording.accounts.entries()) {
        const key = `recorded-key-${a + 1}`
        for (const page of pagesOf(account)) {
          const answer = await ask(served, page.path, key)
          expect(answer.status, page.path).toBe(page.status)
          expect(answer.text, page.path).toBe(JSON.stringify(page.body))
          compared++
        }
        const listed = account.activations.flatMap((p) => (p.body as { activations: never[] }).activations)
        for (const path of filteredPaths(listed)) {
          const want = await ask(upstream, path, keys[a]!)
          const got = await ask(served, path, key)
          expect(`${got.status} ${got.text}`, path).toBe(`${want.status} ${want.text}`)
          compared++
        }
      }
      expect(compared).toBeGreaterThan(50)
      upstream.close()
      served.close()
    })
  },
)

/** Every record object of a recording's pages, as `[kind, record]` pairs, in place (to edit them). */
function* recordsOf(
  recording: Recording,
): Generator<['activation' | 'entry' | 'participant', Record<string, unknown>]> {
  for (const account of recording.accounts) {
    for (const page of pagesOf(account)) {
      const body = page.body as Record<string, any>
      for (const a of body.activations ?? []) yield ['activation', a]
      if (body.activation) yield ['activation', body.activation]
      for (const e of body.entries ?? []) yield ['entry', e]
      for (const p of body.participants ?? []) yield ['participant', p]
    }
  }
}

/** Puts `key: value` into an object right after `after`, keeping the other keys' order. */
function insertAfter(record: Record<string, unknown>, after: string, key: string, value: unknown): void {
  const entries = Object.entries(record)
  for (const k of Object.keys(record)) delete record[k]
  for (const [k, v] of entries) {
    record[k] = v
    if (k === after) record[key] = value
  }
}

describe('a recording with what the emulator does not know', () => {
  it('serves unknown fields, a field in another form and its key order back as sent, and says what it kept', async () => {
    const upstream = await createEmulator({ scenario: 'every-type', now: NOW_ISO })
    const recording = await recordEmulator(upstream, [upstream.scenario.accounts[0]!.apiKeys[0]!])
    upstream.close()
    const oddOne = (recording.accounts[0]!.activations[0]!.body as any).activations[3].id as string
    for (const [kind, record] of recordsOf(recording)) {
      if (kind === 'entry' && 'isReplay' in record) {
        insertAfter(record, 'email', 'loyaltyTier', 'gold')
        if (record.prize) (record.prize as Record<string, unknown>).sku = `SKU-${String(record.id)}`
      }
      if (kind === 'participant') record.segment = { tier: 'vip', since: 2024 }
      if (kind === 'activation' && record.id === oddOne) record.createdAt = (record.createdAt as { iso: string }).iso
    }
    // A field of the page itself, beside the list: a world keeps records, so it is said not to be kept.
    ;(recording.accounts[0]!.activations[0]!.body as Record<string, unknown>).total = 42
    const made = worldFromRecording(recording)
    expect(made.problems).toEqual([
      "a page's own field total (1 page): a world keeps records, not pages, so it is not served back",
    ])
    delete (recording.accounts[0]!.activations[0]!.body as Record<string, unknown>).total
    expect(made.unknownFields.map((line) => line.replace(/ \(.*/, ''))).toEqual([
      'participants[].segment',
      'entries[giveaway].loyaltyTier',
    ])
    expect(made.oddFields.map((line) => line.replace(/ \(\d+ records?, kept as sent\)$/, ''))).toEqual([
      expect.stringMatching(/^activations\[\]\.createdAt: /),
      expect.stringMatching(/^entries\[giveaway\]\.prize: .*sku/),
    ])
    const served = await createEmulator({ data: parseWorldDump(JSON.parse(JSON.stringify(made.dump))) })
    const account = recording.accounts[0]!
    let sku = 0
    for (const page of pagesOf(account)) {
      const answer = await ask(served, page.path, 'recorded-key-1')
      expect(answer.text, page.path).toBe(JSON.stringify(page.body))
      sku += answer.text.split('"sku"').length - 1
    }
    expect(sku).toBeGreaterThan(0)
    // Fields the upstream sent as the emulator would still follow the clock: before a giveaway's first
    // entry, its entries page is empty; the unknown field of an activation would stay as sent.
    const giveaway = Object.keys(account.entries).find(
      (id) => (account.entries[id]![0]!.body as any).entries[0]?.loyaltyTier === 'gold',
    )!
    const first = (account.entries[giveaway]![0]!.body as any).entries[0].enteredAt.iso as string
    served.clock.set(new Date(Date.parse(first) - 1).toISOString())
    const before = JSON.parse((await ask(served, `/activations/${giveaway}`, 'recorded-key-1')).text)
    expect(before.entries).toEqual([])
    served.close()
  })

  it('is dumped and reloaded byte for byte', async () => {
    const upstream = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const recording = await recordEmulator(upstream, [upstream.scenario.accounts[0]!.apiKeys[0]!])
    upstream.close()
    for (const [kind, record] of recordsOf(recording)) if (kind === 'participant') record.segment = 'vip'
    const { dump } = worldFromRecording(recording)
    const once = await createEmulator({ data: parseWorldDump(JSON.parse(JSON.stringify(dump))) })
    const text = [...worldDumpChunks(storeOf(once), once.scenario, once.clock.now())].join('')
    const twice = await createEmulator({ data: JSON.parse(text) })
    expect([...worldDumpChunks(storeOf(twice), twice.scenario, twice.clock.now())].join('')).toBe(text)
    expect(text).toContain('"segment":"vip"')
    once.close()
    twice.close()
  })

  it('takes other settings from a scenario that extends it, and refuses one that adds activations', async () => {
    const upstream = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const recording = await recordEmulator(upstream, [upstream.scenario.accounts[0]!.apiKeys[0]!])
    upstream.close()
    const { dump } = worldFromRecording(recording)
    const data = JSON.parse(JSON.stringify(dump))
    const slow = await createEmulator({
      data,
      scenario: {
        extends: 'recorded',
        name: 'recorded-no-premium',
        description: 'the recording, premium off',
        accounts: [{ name: 'recorded-1', premium: false, apiKeys: ['mine'] }],
        endpoints: { defaultLimits: { entries: 5 } },
      },
    })
    expect((await ask(slow, '/experience/participants', 'mine')).status).toBe(403)
    const id = Object.keys(recording.accounts[0]!.entries)[0]!
    const page = JSON.parse((await ask(slow, `/activations/${id}`, 'mine')).text)
    expect(page.entries.length).toBeLessThanOrEqual(5)
    slow.close()
    await expect(
      createEmulator({
        data,
        scenario: {
          extends: 'recorded',
          name: 'more',
          description: 'more',
          accounts: [{ name: 'recorded-1', activations: [{ type: 'map', state: 'running' }] }],
        },
      }),
    ).rejects.toThrow(/accounts\[0\]\.activations: a dumped or recorded world's activations are its records/)
    await expect(
      createEmulator({ data, scenario: { extends: 'default', name: 'x', description: 'x' } }),
    ).rejects.toThrow(/it extends "default", but the world it is applied to is the scenario "recorded"/)
  })
})

describe('a recorded world, live', () => {
  it('gives running activations of every type new entries made from the set-up it inferred', async () => {
    const upstream = await createEmulator({ scenario: 'every-type', now: NOW_ISO })
    const recording = await recordEmulator(upstream, [upstream.scenario.accounts[0]!.apiKeys[0]!])
    upstream.close()
    const { dump } = worldFromRecording(recording)
    const live = await createEmulator({
      data: JSON.parse(JSON.stringify(dump)),
      scenario: { extends: 'recorded', name: 'recorded-live', description: 'live', live: { entriesPerHour: 30 } },
      live: true,
    })
    const running = JSON.parse((await ask(live, '/activations/list?state=running&limit=100', 'recorded-key-1')).text)
      .activations as Array<{ id: string; type: string }>
    expect(new Set(running.map((a) => a.type)).size).toBeGreaterThan(5)
    const count = async (id: string) => {
      const items: unknown[] = []
      let next: string | null = null
      do {
        const body: { entries: unknown[]; next: string | null } = JSON.parse(
          (await ask(live, `/activations/${id}?limit=1000${next ? `&next=${next}` : ''}`, 'recorded-key-1')).text,
        )
        items.push(...body.entries)
        next = body.next
      } while (next)
      return items.length
    }
    const before = await Promise.all(running.map((a) => count(a.id)))
    live.clock.advance('3h')
    const after = await Promise.all(running.map((a) => count(a.id)))
    const grown = running.filter((_, i) => after[i]! > before[i]!).map((a) => a.type)
    expect(grown.length).toBeGreaterThan(running.length / 2)
    // Every new entry still has its type's shape (call() checks each answer against the OpenAPI document).
    for (const a of running)
      expect((await call(live, `/activations/${a.id}?limit=1000`, 'recorded-key-1')).status).toBe(200)
    live.close()
  })
})
