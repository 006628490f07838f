// A journal entry reads its fields in one order, `seq` first and `bodyHash` last, whether the journal
// copied it (`add`) or took the handlers' own record as it is (what a request answered records).
import { getResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import { journalRecord } from './support/journal-record.js'

const NOW = '2026-06-01T12:00:00.000Z'
let emulator: Emulator | undefined

afterEach(async () => {
  await emulator?.close()
  emulator = undefined
})

const ORDER = [
  'seq',
  'at',
  'realAt',
  'method',
  'path',
  'query',
  'endpoint',
  'key',
  'account',
  'status',
  'durationMs',
  'fault',
]

describe('a journal entry', () => {
  it('of a page answered reads seq first, then the request, how it was answered, and bodyHash last', async () => {
    emulator = await createEmulator({ scenario: 'default', now: NOW })
    const get = (path: string) =>
      getResponse(
        emulator!.handlers,
        new Request(`${emulator!.baseUrl}${path}`, { headers: { authorization: 'Api-Key demo-key' } }),
      )
    expect((await get('/activations/list?limit=2'))?.status).toBe(200)
    expect((await get('/activations/list?limit=0'))?.status).toBe(400)
    const [page, refused] = emulator.journal.entries()
    expect(Object.keys(page!)).toEqual([...ORDER, 'next', 'items', 'bodyHash'])
    expect(Object.keys(refused!)).toEqual([...ORDER, 'error'])
    expect([page!.seq, refused!.seq]).toEqual([1, 2])
  })

  it('added by hand is a copy, numbered with seq first', async () => {
    emulator = await createEmulator({ scenario: 'default', now: NOW })
    const record = journalRecord(NOW)
    const first = emulator.journal.add(record)
    const second = emulator.journal.add(record)
    expect(first).not.toBe(record)
    expect(Object.keys(first)).toEqual(ORDER)
    expect([first.seq, second.seq, 'seq' in record]).toEqual([1, 2, false])
  })
})
