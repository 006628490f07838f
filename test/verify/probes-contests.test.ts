/**
 * verify's probes of contests' ranks and of repeat entrants, against an emulator standing in for the
 * real API and against an API that breaks each rule: the probe must then differ (and `verify` exit
 * non-zero). Found missing by mutation testing (npm run test:mutation -- probes).
 */
import { describe, expect, it } from 'vitest'
import { edited, json, useProbeUpstream, type Tamper } from '../support/probe-upstream.js'

const upstream = useProbeUpstream()

type Body = Record<string, any>
const ENTRIES = (path: string) =>
  /^\/activations\/\w+(\?limit=100)?$/.test(path) && !path.startsWith('/activations/list')
/** Edits the entries of the pages of activations of `type` (discovery's, and the probe's own `?limit=100`). */
const entriesOf =
  (type: string, edit: (entries: Body[], path: string) => Body[]): Tamper =>
  (path, honest) =>
    ENTRIES(path)
      ? edited(honest(), (b) => (b.activation?.type === type ? { ...b, entries: edit(b.entries, path) } : b))
      : honest()
const running = (path: string) => path.endsWith('?limit=100')

describe('contest-rank', () => {
  it('confirms an ended contest ranked and a running one without ranks or winners', async () => {
    const { outcome, sent } = await upstream.probe('contest-rank')
    expect(outcome).toEqual({ result: 'confirmed', detail: 'an ended contest ranked; a running contest with neither' })
    expect(sent.at(-1)).toMatch(/^GET \/activations\/\w+\?limit=100$/)
  })

  it('differs on an ended contest entry without a rank', async () => {
    const { outcome } = await upstream.probe('contest-rank', {
      tamper: entriesOf('contest', (entries, path) =>
        running(path) ? entries : entries.map((e, i) => (i === 1 ? { ...e, rank: undefined } : e)),
      ),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: "an ended contest's entries[1] has no rank; the emulator ranks every entry once ended",
      request: expect.stringMatching(/^GET \/activations\/\w+$/),
    })
  })

  it.each([
    ['a rank', { rank: 1 }],
    ['a winner', { isWinner: true }],
  ])('differs on a running contest entry with %s', async (_, change) => {
    const { outcome } = await upstream.probe('contest-rank', {
      tamper: entriesOf('contest', (entries, path) =>
        running(path) ? entries.map((e, i) => (i === 2 ? { ...e, ...change } : e)) : entries,
      ),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: "a running contest's entries[2] has a rank or is a winner; the emulator has neither before the end",
      request: expect.stringMatching(/^GET \/activations\/\w+\?limit=100$/),
    })
  })

  it('differs when the running contest is refused', async () => {
    const { outcome } = await upstream.probe('contest-rank', {
      tamper: (path, honest) =>
        path.endsWith('?limit=100') && path !== '/activations/list?limit=100' ? json(404, { error: 'gone' }) : honest(),
    })
    expect(outcome).toMatchObject({ result: 'differs', detail: 'a running contest answered 404 {"error":"gone"}' })
  })

  it('says only what it checked, and is not checkable with no contest with entries', async () => {
    const noRunningEntries = await upstream.probe('contest-rank', {
      tamper: entriesOf('contest', (entries, path) => (running(path) ? [] : entries)),
    })
    expect(noRunningEntries.outcome).toEqual({ result: 'confirmed', detail: 'an ended contest ranked' })
    const none = await upstream.probe('contest-rank', { tamper: entriesOf('contest', () => []) })
    expect(none.outcome).toEqual({
      result: 'not-checkable',
      detail: 'no ended or running contest with entries in this account',
    })
  })
})

describe('replays', () => {
  it('confirms the emulator, and a giveaway may have the same e-mail twice', async () => {
    expect((await upstream.probe('replays')).outcome).toMatchObject({ result: 'confirmed' })
    const giveaway = await upstream.probe('replays', {
      tamper: entriesOf('giveaway', (entries) => entries.map((e) => ({ ...e, email: 'same@example.com' }))),
    })
    expect(giveaway.outcome.result).toBe('confirmed')
  })

  it('differs when another type has two entries by the same e-mail', async () => {
    const { outcome } = await upstream.probe('replays', {
      tamper: entriesOf('trivia', (entries) =>
        entries.map((e, i) => (i === 1 ? { ...e, email: entries[0]!['email'] } : e)),
      ),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: 'a trivia has two entries by the same e-mail; the emulator enters each person once',
      request: expect.stringMatching(/^GET \/activations\/\w+$/),
    })
  })

  it('is not checkable when no activation but a giveaway has two entries read', async () => {
    const { outcome } = await upstream.probe('replays', {
      tamper: (path, honest) =>
        ENTRIES(path)
          ? edited(honest(), (b) => (b.activation?.type === 'giveaway' ? b : { ...b, entries: b.entries.slice(0, 1) }))
          : honest(),
    })
    expect(outcome).toEqual({
      result: 'not-checkable',
      detail: 'no activation other than a giveaway with two entries read',
    })
  })
})
