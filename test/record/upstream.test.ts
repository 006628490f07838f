import { describe, expect, it } from 'vitest'
import { activationSchema, entrySchemas, participantSchema } from '../../src/contract.js'
import { expectedAccounts } from '../support/upstream.js'

// The hand-written upstream's dataset sends what the emulator would: the contract's shapes (checked
// strictly) and its orders, so that a recorded world can be served back identically.

const LIMITS = { activations: 100, entries: 1000, participants: 100 }

describe('the test upstream', () => {
  const accounts = expectedAccounts(LIMITS)
  const activations = accounts.map((a) => (a.activations[0]!.body as any).activations as any[])

  it('sends activations, entries and participants of the contract’s shapes, and nothing else', () => {
    for (const [i, account] of accounts.entries()) {
      for (const activation of activations[i]!) expect(activationSchema.parse(activation)).toEqual(activation)
      for (const pages of Object.values(account.entries)) {
        const { activation, entries } = pages[0]!.body as any
        const schema = entrySchemas[activation.type as keyof typeof entrySchemas]
        for (const entry of entries) expect(schema.parse(entry)).toEqual(entry)
      }
      for (const page of account.participants) {
        for (const p of (page.body as any).participants) expect(participantSchema.parse(p)).toEqual(p)
      }
    }
    const types = new Set(activations.flat().map((a) => `${a.type}${a.subtype ? `/${a.subtype}` : ''}`))
    expect([...types].sort()).toEqual([
      'artwall',
      'bracket',
      'contest',
      'form',
      'giveaway/instant_win',
      'map',
      'pickem',
      'scavenger',
      'sweepstakes/vote_to_win',
      'trivia',
    ])
  })

  it('lists activations by startTime newest first, then id, and participants by firstEnteredAt, then id', () => {
    for (const list of activations) {
      const keys = list.map((a) => [a.startTime.iso, a.id])
      const sorted = [...keys].sort((x, y) => (x[0] !== y[0] ? (x[0] < y[0] ? 1 : -1) : x[1] < y[1] ? -1 : 1))
      expect(keys).toEqual(sorted)
    }
    const participants = (accounts[0]!.participants[0]!.body as any).participants as any[]
    const keys = participants.map((p) => `${p.firstEnteredAt.iso} ${p.id}`)
    expect(keys).toEqual([...keys].sort())
  })

  it('gives each participant their earliest entry as firstEnteredAt, and each activation entered once, by first entry', () => {
    const entries = Object.values(accounts[0]!.entries).flatMap((pages) => {
      const { activation, entries } = pages[0]!.body as any
      return (entries as any[]).map((e) => ({ email: e.email, at: e.enteredAt.iso, activation: activation.id }))
    })
    for (const p of (accounts[0]!.participants[0]!.body as any).participants as any[]) {
      const mine = entries.filter((e) => e.email === p.email)
      expect(p.firstEnteredAt.iso).toBe(mine.map((e) => e.at).sort()[0])
      const firsts = [...new Set(mine.map((e) => e.activation))].map(
        (id) =>
          [
            mine
              .filter((e) => e.activation === id)
              .map((e) => e.at)
              .sort()[0],
            id,
          ] as const,
      )
      expect(p.activationsEntered.map((a: any) => [a.firstEnteredAt.iso, a.id])).toEqual(
        firsts.sort((x, y) => (x[0] < y[0] ? -1 : 1)),
      )
    }
  })

  it('adds unknown fields and sends one field in another form when asked', () => {
    const [odd] = expectedAccounts(LIMITS, { unknownFields: true, oddField: true })
    const first = (odd!.activations[0]!.body as any).activations[0]
    expect(typeof first.createdAt).toBe('string')
    expect(first.timezone).toBe('America/Chicago')
    const giveaway = (odd!.entries['giv-1']![0]!.body as any).entries[0]
    expect(giveaway).toMatchObject({ loyaltyTier: 'gold', prize: { sku: 'SKU-1' } })
    expect((odd!.participants[0]!.body as any).participants[0].locale).toBe('en-US')
  })
})
