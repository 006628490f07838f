import type { JournalEntry } from '../../src/index.js'

/** A journal record of a 404 for `path` at `at`, with nothing else set: what a test of the journal's bounds adds. */
export const journalRecord = (at: string, path = '/x') => ({
  at,
  realAt: 0,
  method: 'GET',
  path,
  query: {},
  endpoint: null,
  key: null,
  account: null,
  status: 404,
  durationMs: 0,
  fault: null,
})

/** What a hand-made entry of a participants page may say otherwise: any field, and `cursor`, the `next` it asked. */
export type PageEntryInput = Partial<JournalEntry> & { cursor?: string }

/**
 * A hand-made journal entry numbered `seq`, `seq` seconds after `t0` (on the clock and in real time):
 * a 200 page of participants asked with `limit=2` and the key `demo-key`, the last page, unless
 * `over` says otherwise.
 */
export function pageEntry(seq: number, t0: number, over: PageEntryInput = {}): JournalEntry {
  const { cursor, ...rest } = over
  return {
    seq,
    at: new Date(t0 + seq * 1000).toISOString(),
    realAt: t0 + seq * 1000,
    method: 'GET',
    path: '/experience/participants',
    query: { limit: ['2'], ...(cursor === undefined ? {} : { next: [cursor] }) },
    endpoint: 'participants',
    key: 'demo-key',
    account: 'demo',
    status: 200,
    durationMs: 1,
    fault: null,
    next: null,
    ...rest,
  }
}
