import { describe, expect, it, vi } from 'vitest'
import { changeWorld } from '../bench/changes.js'
import { pagesHash } from '../bench/pages-hash.js'
import { stateOf } from '../src/contract.js'
import { ByteCache } from '../src/store/byte-cache.js'
import { createEmulator, type Emulator, type Sandbox } from '../src/index.js'
import { call, NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

// An emulator keeps the JSON of the entries it served, found again by id for an entry of its world as
// loaded (which a planned world builds anew, equal) and by the object for any other. Whatever it served
// before, every page must be what a fresh emulator serves after the same steps.

const fresh = (options: Parameters<typeof createEmulator>[0] = {}): Promise<Emulator> =>
  createEmulator({ scenario: 'default', now: NOW_ISO, ...options })

describe('the entries JSON kept', () => {
  it('serves a write made after the pages were read, as a fresh emulator does', async () => {
    const warm = await fresh()
    await pagesHash(warm)
    await changeWorld(warm, 24)
    const cold = await fresh()
    await changeWorld(cold, 24)
    expect((await pagesHash(warm)).hash).toBe((await pagesHash(cold)).hash)
  })

  it('serves each face of an entry at its instant, the clock moved to and fro', async () => {
    const warm = await fresh()
    const atNow = (await pagesHash(warm)).hash
    for (const instant of ['2026-04-01T00:00:00.000Z', '2026-05-20T00:00:00.000Z']) {
      warm.clock.set(instant)
      const cold = await fresh()
      cold.clock.set(instant)
      expect((await pagesHash(warm)).hash, instant).toBe((await pagesHash(cold)).hash)
    }
    warm.clock.set(NOW_ISO)
    expect((await pagesHash(warm)).hash).toBe(atNow)
  })

  it("serves a sandbox's own change in the sandbox and the world as loaded in the host", async () => {
    const host = await fresh()
    const before = (await pagesHash(host)).hash
    const sandbox = await host.sandbox()
    await addedEntries(sandbox)
    const cold = await (await fresh()).sandbox()
    await addedEntries(cold)
    // Pages only: a sandbox's dump names its keys, which are drawn at random.
    const served = await entriesPages(sandbox)
    expect(served).toEqual(await entriesPages(cold))
    expect(served).not.toEqual(await entriesPages(host))
    expect((await pagesHash(host)).hash).toBe(before)
  })

  it('serves the world as loaded after reset(), whatever was served before it', async () => {
    const warm = await fresh()
    const before = (await pagesHash(warm)).hash
    await changeWorld(warm, 24)
    await pagesHash(warm)
    await warm.reset()
    expect((await pagesHash(warm)).hash).toBe(before)
  })

  it('looks each entry of a page of the world as loaded up once in what is kept, whether it was kept or not', async () => {
    const emulator = await fresh()
    const account = emulator.accounts[0]!
    const pathOf = (id: string) => `/activations/${encodeURIComponent(id)}?limit=20`
    // An activation with a full page, found on another emulator: this one has kept nothing yet.
    const other = await fresh()
    let path = ''
    for (const activation of other.db.index.activationsOf(account.name))
      if ((await call(other, pathOf(activation.id), account.apiKeys[0]!)).body.entries.length === 20) {
        path = pathOf(activation.id)
        break
      }
    const lookups = vi.spyOn(ByteCache.prototype, 'get')
    try {
      const first = await call(emulator, path, account.apiKeys[0]!)
      expect(first.body.entries).toHaveLength(20)
      expect(lookups).toHaveBeenCalledTimes(20)
      lookups.mockClear()
      expect((await call(emulator, path, account.apiKeys[0]!)).text).toBe(first.text)
      expect(lookups).toHaveBeenCalledTimes(20)
    } finally {
      lookups.mockRestore()
    }
  })

  it('serves the same pages with any budget, the least one keeping nothing', async () => {
    const hash = (await pagesHash(await fresh())).hash
    expect((await pagesHash(await fresh({ bodyCache: '0' }))).hash).toBe(hash)
    expect((await pagesHash(await fresh({ bodyCache: 'recent' }))).hash).toBe(hash)
  })
})

/** Entries added to every running activation (a sandbox's own), which its lists and pages then show. */
async function addedEntries(emulator: Sandbox | Emulator): Promise<void> {
  for (const account of emulator.accounts)
    for (const activation of emulator.db.index.activationsOf(account.name))
      if (stateOf(activation, emulator.clock.now()) === 'running') await emulator.addEntries(activation.id, 3)
}

/** The text of every page of every activation's entries, in order. */
async function entriesPages(emulator: Sandbox | Emulator): Promise<string[]> {
  const texts: string[] = []
  for (const account of emulator.accounts)
    for (const activation of emulator.db.index.activationsOf(account.name)) {
      let path: string | null = `/activations/${encodeURIComponent(activation.id)}?limit=1000`
      while (path !== null) {
        const answer = await call(emulator as unknown as Emulator, path, account.apiKeys[0]!)
        texts.push(answer.text)
        const next = answer.body.next as string | null
        path =
          next === null
            ? null
            : `/activations/${encodeURIComponent(activation.id)}?limit=1000&next=${encodeURIComponent(next)}`
      }
    }
  return texts
}

describe('the bodyCache option', () => {
  it('takes a size up to 1GB or recent, and refuses anything else in one line', async () => {
    for (const bodyCache of ['1GB', 2 ** 30, '512KB', '0', 'recent'])
      await expect(fresh({ bodyCache })).resolves.toBeDefined()
    for (const bodyCache of [2 ** 30 + 1, '1025MB', '-1', 'lots', 1.5])
      await expect(fresh({ bodyCache }), String(bodyCache)).rejects.toThrow(/bodyCache.*must be a size of at most 1GB/)
  })
})
