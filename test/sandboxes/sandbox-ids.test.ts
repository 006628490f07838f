/**
 * A sandbox's id is drawn again when the one drawn is already another open sandbox's (ids are drawn at
 * random: the test makes the draw repeat itself).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'

const ids = vi.hoisted(() => ({ next: [] as string[] }))
vi.mock('../../src/emulator/sandboxes.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/emulator/sandboxes.js')>()
  return {
    ...original,
    randomToken: (length: number) =>
      length === 12 && ids.next.length ? ids.next.shift()! : original.randomToken(length),
  }
})

let host: Emulator | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

describe("a sandbox's id", () => {
  it('is drawn again while it is an open sandbox’s', async () => {
    host = await createEmulator({ scenario: 'empty', now: '2026-06-01T12:00:00.000Z' })
    ids.next = ['aaaaaaaaaaaa', 'aaaaaaaaaaaa', 'aaaaaaaaaaaa', 'bbbbbbbbbbbb']
    const first = await host.sandbox()
    const second = await host.sandbox()
    expect([first.id, second.id]).toEqual(['aaaaaaaaaaaa', 'bbbbbbbbbbbb'])
    expect(
      host.sandboxes
        .list()
        .map((info) => info.id)
        .sort(),
    ).toEqual(['aaaaaaaaaaaa', 'bbbbbbbbbbbb'])
    expect(host.sandboxes.get('aaaaaaaaaaaa')).toBe(first)
  })
})
