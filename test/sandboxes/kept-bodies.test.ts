import { getResponse } from 'msw'
import { expect, it } from 'vitest'
import { createEmulator, defineScenario, type Emulator, type Store } from '../../src/index.js'
import { NOW_ISO } from '../support/api.js'

// A host and its sandboxes keep the list bodies they made last in one set of slots (a body is a
// function of its pieces: each record's bytes, by identity). A page asked in one must never be
// answered with a body another made from other pieces: another instant, added entries, a reset.

const world = defineScenario({
  name: 'kept-bodies',
  description: 'One running giveaway and its entries',
  seed: 5,
  accounts: [
    {
      name: 'acme',
      apiKeys: ['acme-key'],
      people: 30,
      activations: [{ type: 'giveaway', state: 'running', entries: 12 }],
    },
  ],
})

async function text(host: Emulator<Store>, path: string, key: string): Promise<string> {
  const response = await getResponse(
    host.handlers,
    new Request(`${host.baseUrl}${path}`, { headers: { authorization: `Api-Key ${key}` } }),
  )
  expect(response!.status).toBe(200)
  return response!.text()
}

it('answers each sandbox and its host with the bodies of their own pieces, asked in turn', async () => {
  const host = await createEmulator({ scenario: world, now: NOW_ISO })
  const id = host.db.index.activationsOf('acme')[0]!.id
  const page = `/activations/${id}?limit=100`
  const asBuilt = await text(host, page, 'acme-key')
  const same = await host.sandbox()
  const added = await host.sandbox()
  // Halfway through its entries: fewer of them, and the activation as it stood then.
  const midway = host.db.index.entryListsOf(id).all[6]!.enteredAt.iso
  const earlier = await host.sandbox({ now: midway })
  const key = (sandbox: { apiKeys: Readonly<Record<string, string[]>> }) => sandbox.apiKeys['acme']![0]!
  const { entries } = await added.addEntries(id, 3)
  const withAdded = await text(added, page, key(added))
  const before = await text(earlier, page, key(earlier))
  expect(withAdded).not.toBe(asBuilt)
  expect(before).not.toBe(asBuilt)
  for (const e of entries) expect(withAdded).toContain(e)

  for (let round = 0; round < 3; round++) {
    expect(await text(host, page, 'acme-key')).toBe(asBuilt)
    expect(await text(host, page, key(same))).toBe(asBuilt)
    expect(await text(host, page, key(added))).toBe(withAdded)
    expect(await text(host, page, key(earlier))).toBe(before)
  }
  await added.reset()
  expect(await text(host, page, key(added))).toBe(asBuilt)
  expect(await text(host, page, key(earlier))).toBe(before)
  await host.close()
})
