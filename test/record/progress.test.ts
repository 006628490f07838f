import { describe, expect, it } from 'vitest'
import { formatRecordProgress, recordProgressLine } from '../../src/node/record/progress.js'
import type { RecordProgress } from '../../src/node/record/record-options.js'

const progress = (pages: number, over: Partial<RecordProgress> = {}): RecordProgress => ({
  pages,
  records: pages * 100,
  rate: 1234.4,
  activations: { listed: 40, done: 10 },
  account: 1,
  accounts: 1,
  ...over,
})

function stream(isTTY: boolean) {
  const writes: string[] = []
  return { writes, isTTY, write: (chunk: string) => writes.push(chunk) > 0 }
}

describe('record progress', () => {
  it('says activations done over listed, pages, records and the rate, the account when several, and a wait', () => {
    expect(formatRecordProgress(progress(1500))).toBe(
      '10/40 activations, 1,500 pages, 150,000 records, 1,234 records/s',
    )
    expect(formatRecordProgress(progress(3, { account: 2, accounts: 3 }), 'waiting 59 s for the rate limit')).toBe(
      'account 2/3, 10/40 activations, 3 pages, 300 records, 1,234 records/s, waiting 59 s for the rate limit',
    )
  })

  it('redraws one bar on a terminal at most ten times a second, and clears it when done', () => {
    let now = 0
    const out = stream(true)
    const line = recordProgressLine(out, { now: () => now, timer: false })
    for (let i = 1; i <= 30; i++) {
      now += 10
      line.onProgress(progress(i))
    }
    // 300 ms of pages every 10 ms: drawn at 10, 110 and 210 ms.
    expect(out.writes).toHaveLength(3)
    expect(out.writes[0]).toBe(
      '\r\u001b[2Krecord [#####...............] 10/40 activations, 1 pages, 100 records, 1,234 records/s',
    )
    line.done()
    expect(out.writes.at(-1)).toBe('\r\u001b[2K')
  })

  it('writes a plain line every five seconds elsewhere, and one at once when a 429 makes it wait', () => {
    let now = 0
    const out = stream(false)
    const line = recordProgressLine(out, { now: () => now, timer: false })
    for (let i = 1; i <= 12; i++) {
      now += 1000
      line.onProgress(progress(i))
    }
    line.onEvent({ type: 'wait', method: 'GET', path: '/activations/list?limit=100', seconds: 60 })
    line.onEvent({ type: 'wait', method: 'GET', path: '/experience/participants?limit=100', seconds: 60 })
    line.done()
    expect(out.writes).toEqual([
      'record: 10/40 activations, 1 pages, 100 records, 1,234 records/s\n',
      'record: 10/40 activations, 6 pages, 600 records, 1,234 records/s\n',
      'record: 10/40 activations, 11 pages, 1,100 records, 1,234 records/s\n',
      'record: 10/40 activations, 12 pages, 1,200 records, 1,234 records/s, waiting 60 s for the rate limit\n',
    ])
  })

  it('says what it waits for from the first request, and keeps a line every five seconds while it waits', () => {
    let now = 0
    const out = stream(false)
    const line = recordProgressLine(out, { now: () => now, timer: false })
    line.onEvent({ type: 'request', method: 'GET', path: '/activations/list?limit=100', attempt: 1 })
    for (let i = 0; i < 3; i++) {
      now += 5000
      line.tick()
    }
    line.onEvent({ type: 'answer', method: 'GET', path: '/activations/list?limit=100', status: 429 })
    line.onEvent({ type: 'wait', method: 'GET', path: '/activations/list?limit=100', seconds: 42 })
    now += 5000
    line.tick()
    line.onEvent({ type: 'retry', method: 'GET', path: '/x', attempt: 1, reason: 'status 503', delayMs: 8000 })
    now += 40_000
    line.tick()
    line.done()
    expect(out.writes).toEqual([
      'record: 0/0 activations, 0 pages, 0 records, 0 records/s, waiting 5 s for GET /activations/list?limit=100\n',
      'record: 0/0 activations, 0 pages, 0 records, 0 records/s, waiting 10 s for GET /activations/list?limit=100\n',
      'record: 0/0 activations, 0 pages, 0 records, 0 records/s, waiting 15 s for GET /activations/list?limit=100\n',
      'record: 0/0 activations, 0 pages, 0 records, 0 records/s, waiting 42 s for the rate limit\n',
      'record: 0/0 activations, 0 pages, 0 records, 0 records/s, waiting 37 s for the rate limit\n',
      'record: 0/0 activations, 0 pages, 0 records, 0 records/s\n',
    ])
  })
})
