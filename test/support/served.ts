import { createHash } from 'node:crypto'
import { getResponse } from 'msw'
import { expect } from 'vitest'
import type { Emulator } from '../../src/index.js'
import { activationAt, entryAt, participantExtrasAt } from '../../src/contract/at-instant.js'
import { compareDates } from '../../src/contract/date-object.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../../src/contract/stored-records.js'
import { toActivation, toEntry } from '../../handlers/serialize.js'
import type { WorldAt } from './world-rules.js'

/** A GET through the emulator's handlers (no network), with its first key: the status and the body's text. */
export async function fetchText(emulator: Emulator, path: string): Promise<{ status: number; text: string }> {
  const request = new Request(`${emulator.baseUrl}${path}`, {
    headers: { authorization: `Api-Key ${emulator.accounts[0]!.apiKeys[0]}` },
  })
  const response = await getResponse(emulator.handlers, request)
  if (!response) throw new Error(`No handler answered ${path}`)
  return { status: response.status, text: await response.text() }
}

/** Every page of a list, following `next`: the items in order, and each page's body as sent. */
async function walk(emulator: Emulator, path: string, member: string) {
  const items: any[] = []
  const bodies: string[] = []
  let next: string | null = null
  const join = path.includes('?') ? '&' : '?'
  do {
    const answer = await fetchText(emulator, next === null ? path : `${path}${join}next=${encodeURIComponent(next)}`)
    expect(answer.status, answer.text).toBe(200)
    const body = JSON.parse(answer.text)
    bodies.push(answer.text)
    items.push(...body[member])
    next = body.next
  } while (next !== null)
  return { items, bodies }
}

/**
 * The world as the API should show it at the clock's instant, found by a plain scan of the store's
 * collections (not its indexes): what exists at that instant, each record as it stood then, and each
 * participant's derived fields counted from the entries in it. The emulator is brought up to its clock first.
 */
export function viewAt(emulator: Emulator): WorldAt & { served: { participants: any[] } } {
  emulator.state()
  const now = emulator.clock.now()
  const iso = new Date(now).toISOString()
  const db = emulator.db
  const activations = (db.activations.all() as StoredActivation[])
    .filter((a) => a.createdAt.iso <= iso)
    .map((a) => activationAt(a, iso))
  const byId = new Map(activations.map((a) => [a.id, a]))
  const entries = (db.materialize().entries.all() as StoredEntry[])
    .filter((e) => byId.has(e.activationId) && e.enteredAt.iso <= iso)
    .map((e) => entryAt(e, byId.get(e.activationId)!, iso))
  const ofPerson = new Map<string, StoredEntry[]>()
  for (const e of entries) {
    const list = ofPerson.get(e.participantId)
    if (list) list.push(e)
    else ofPerson.set(e.participantId, [e])
  }
  const participants = (db.materialize().participants.all() as StoredParticipant[])
    .filter((p) => ofPerson.has(p.id))
    .map((p) => ({ ...p, extras: participantExtrasAt(p, iso) }))
  const served = participants
    .map((p) => {
      const mine = ofPerson.get(p.id)!
      const firsts = new Map<string, StoredEntry>()
      for (const e of mine) {
        const first = firsts.get(e.activationId)
        if (!first || compareDates(e.enteredAt, first.enteredAt) < 0) firsts.set(e.activationId, e)
      }
      const activationsEntered = [...firsts.values()]
        .map((e) => {
          const a = byId.get(e.activationId)!
          return { id: a.id, type: a.type, title: a.title, firstEnteredAt: e.enteredAt }
        })
        .sort((x, y) => compareDates(x.firstEnteredAt, y.firstEnteredAt) || (x.id < y.id ? -1 : 1))
      const { id, email, firstName, lastName, extras } = p
      return {
        id,
        email,
        firstName,
        lastName,
        extras,
        activationsEntered,
        firstEnteredAt: activationsEntered[0]!.firstEnteredAt,
      }
    })
    .sort((x, y) => compareDates(x.firstEnteredAt, y.firstEnteredAt) || (x.id < y.id ? -1 : 1))
  return { activations, entries, participants, now, served: { participants: served } }
}

/**
 * Walks every endpoint of the first account (every page of the list, of each activation's entries, of
 * the participants, and the latest activation) and checks that each shows exactly `view`. Returns a
 * hash of every body sent, for comparing whole worlds byte for byte.
 */
export async function expectServedAsViewed(emulator: Emulator, view: ReturnType<typeof viewAt>): Promise<string> {
  const hash = createHash('sha256')
  const account = emulator.accounts[0]!.name
  const mine = view.activations.filter((a) => a.account === account)
  const listed = await walk(emulator, '/activations/list?limit=100', 'activations')
  listed.bodies.forEach((b) => hash.update(b))
  const expected = [...mine].sort((a, b) => compareDates(b.startTime, a.startTime) || (a.id < b.id ? -1 : 1))
  expect(JSON.stringify(listed.items)).toBe(JSON.stringify(expected.map(toActivation)))

  const byActivation = new Map<string, StoredEntry[]>()
  for (const e of view.entries) {
    const list = byActivation.get(e.activationId)
    if (list) list.push(e)
    else byActivation.set(e.activationId, [e])
  }
  for (const a of expected) {
    const page = await walk(emulator, `/activations/${a.id}?limit=1000`, 'entries')
    page.bodies.forEach((b) => hash.update(b))
    const served = (byActivation.get(a.id) ?? []).map((e) => toEntry(e, a))
    expect(JSON.stringify(page.items), `the entries of ${a.id} at ${new Date(view.now).toISOString()}`).toBe(
      JSON.stringify(served),
    )
  }
  // Activations that exist only later are not found.
  for (const a of emulator.db.activations.all() as StoredActivation[]) {
    if (a.account === account && !mine.some((m) => m.id === a.id))
      expect((await fetchText(emulator, `/activations/${a.id}`)).status).toBe(404)
  }

  const latest = await fetchText(emulator, '/activations/latest?limit=1000')
  hash.update(latest.text)
  const started = expected.filter((a) => a.startTime.iso <= new Date(view.now).toISOString())
  if (started.length === 0) expect(latest.status).toBe(404)
  else expect(JSON.parse(latest.text).activation.id).toBe(started[0]!.id)

  const participants = await walk(emulator, '/experience/participants?limit=100', 'participants')
  participants.bodies.forEach((b) => hash.update(b))
  const ofAccount = new Set(view.participants.filter((p) => p.account === account).map((p) => p.id))
  const theirs = view.served.participants.filter((p) => ofAccount.has(p.id))
  expect(JSON.stringify(participants.items)).toBe(JSON.stringify(theirs))
  return hash.digest('hex')
}
