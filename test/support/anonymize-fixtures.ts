import type { RecordedPage, Recording } from '../../src/world/recording.js'
import { RECORDING_FORMAT } from '../../src/world/recording.js'

// What the tests of anonymizeRecording share: where the records of a recording are, the personal
// strings a plain scan finds in one, and a small recording built by hand.

export const NOW = '2026-06-01T12:00:00Z'

export type Obj = Record<string, any>

/** Every entry (of every entries, completed and winners page) and every participant of a recording, with where it is. */
export function records(recording: Recording): Array<{ kind: 'entry' | 'participant'; at: string; record: Obj }> {
  const out: Array<{ kind: 'entry' | 'participant'; at: string; record: Obj }> = []
  recording.accounts.forEach((account, a) => {
    for (const map of ['entries', 'completed', 'winners'] as const)
      for (const [id, pages] of Object.entries(account[map]))
        pages.forEach((page, p) =>
          ((page.body as Obj).entries ?? []).forEach((record: Obj, i: number) =>
            out.push({ kind: 'entry', at: `${a}/${map}/${id}/${p}/${i}`, record }),
          ),
        )
    account.participants.forEach((page, p) =>
      ((page.body as Obj).participants ?? []).forEach((record: Obj, i: number) =>
        out.push({ kind: 'participant', at: `${a}/participants/${p}/${i}`, record }),
      ),
    )
  })
  return out
}

/** Every page of a recording. */
export const allPages = (r: Recording): RecordedPage[] =>
  r.accounts.flatMap((a) => [
    ...a.activations,
    ...[a.entries, a.completed, a.winners].flatMap((m) => Object.values(m).flat()),
    ...a.participants,
  ])

const EMAIL = /[\w.%+'-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/gi
const PHONE = /\+?\d?[ (.]*\d{3}[ ).-]*\d{3}[ .-]*\d{4}\b/g
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

let lowered = { of: '', lower: '' }

/** Whether `text` occurs in `within` as a whole (not inside a longer word or e-mail). */
export function occurs(text: string, within: string): boolean {
  if (lowered.of !== within) lowered = { of: within, lower: within.toLowerCase() }
  if (!lowered.lower.includes(text.toLowerCase())) return false
  return new RegExp(`(?<![\\p{L}\\p{N}._%+'-])${escape(text)}(?![\\p{L}\\p{N}])`, 'iu').test(within)
}

/** Every string at any depth of a value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out))
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out))
  return out
}

/**
 * The personal strings of a recording, found by a plain scan: each record's e-mail, names and full
 * name, address lines, text extras, answers given by fewer than three people, and any e-mail address
 * or phone number in any string.
 */
export function personalStrings(recording: Recording) {
  const found = {
    emails: new Set<string>(),
    firstNames: new Set<string>(),
    lastNames: new Set<string>(),
    fullNames: new Set<string>(),
    addressLines: new Set<string>(),
    phones: new Set<string>(),
    texts: new Set<string>(),
  }
  const givenBy = new Map<string, Set<string>>()
  const answers: Array<[string, string]> = []
  const answer = (id: string, value: string, email: string) => {
    givenBy.set(id, (givenBy.get(id) ?? new Set()).add(email.toLowerCase()))
    answers.push([id, value])
  }
  for (const { kind, record } of records(recording)) {
    found.emails.add(record.email.toLowerCase())
    found.firstNames.add(record.firstName)
    found.lastNames.add(record.lastName)
    found.fullNames.add(`${record.firstName} ${record.lastName}`)
    // A city, a state or a postal code is many people's, and may be anyone's name ("Murray"): checked where it was only.
    if (record.address)
      for (const line of ['line1', 'line2'] as const)
        if (record.address[line]) found.addressLines.add(record.address[line])
    for (const x of record.extras) {
      if (kind === 'entry' && x.type === 'text') found.texts.add(x.value)
      else if (kind === 'entry' && x.type !== 'select' && x.type !== 'checkbox')
        answer(`extra/${x.key}/${x.value}`, x.value, record.email)
      if (kind === 'participant') answer(`profile/${x.key}/${x.value}`, x.value, record.email)
    }
    for (const a of record.answers ?? []) answer(`survey/${a.question}/${a.answer}`, a.answer, record.email)
  }
  for (const [id, value] of answers) if (givenBy.get(id)!.size < 3) found.texts.add(value)
  for (const text of strings(allPages(recording).map((p) => p.body))) {
    for (const m of text.matchAll(EMAIL)) found.emails.add(m[0].toLowerCase())
    for (const m of text.matchAll(PHONE)) found.phones.add(m[0])
  }
  return found
}

export type SmallPerson = { local: string; domain: string; firstName: string; lastName: string }
export type SmallEntry = { who: number; activation: number; upper: boolean; note: boolean; unknown: boolean }

/** A recording of three sign-up forms and the people who entered them, paged at `limit`, built by hand. */
export function smallRecording(people: SmallPerson[], entries: SmallEntry[], limit: number): Recording {
  const date = (n: number) => ({
    iso: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    ts: 1767225600 + n * 60,
  })
  const activations = [0, 1, 2].map((a) => ({
    id: `Act${a}`,
    type: 'form',
    publicUrl: `https://club.example/form-${a}`,
    title: `Form ${a}`,
    description: 'Sign up.',
    slug: `form-${a}`,
    startTime: date(0),
    endTime: date(100_000),
    sponsorName: null,
    sponsorUrl: null,
    createdAt: date(0),
    updatedAt: date(0),
  }))
  const paged = <T>(items: T[], path: string, member: string, extra: Obj = {}): RecordedPage[] => {
    const pages: RecordedPage[] = []
    for (let at = 0; at === 0 || at < items.length; at += limit) {
      const next = at + limit < items.length ? `N${at + limit}` : null
      pages.push({
        path: `${path}?limit=${limit}${at ? `&next=N${at}` : ''}`,
        status: 200,
        body: { ...extra, [member]: items.slice(at, at + limit), next },
      })
    }
    return pages
  }
  const byActivation: Obj[][] = [[], [], []]
  const entered = new Set<number>()
  entries.forEach((e, i) => {
    const p = e.who % people.length
    const person = people[p]!
    entered.add(p)
    const email = `${person.local}@${person.domain}`
    const fullName = `${person.firstName} ${person.lastName}`
    byActivation[e.activation]!.push({
      id: `Ent${i}`,
      email: e.upper ? email.toUpperCase() : email,
      firstName: person.firstName,
      lastName: person.lastName,
      emailOptIn: e.upper,
      extras: e.note ? [{ key: 'note', label: 'Note', type: 'text', value: `${fullName} wrote this` }] : [],
      enteredAt: date(i + 1),
      ...(e.unknown ? { meta: { who: [fullName, email.toUpperCase()], line: `mail ${email} now` } } : {}),
    })
  })
  const participants = [...entered].sort().map((p, i) => {
    const person = people[p]!
    return {
      id: `Par${p}`,
      email: `${person.local}@${person.domain}`,
      firstName: person.firstName,
      lastName: person.lastName,
      extras: [],
      activationsEntered: [],
      firstEnteredAt: date(i),
      alias: `${person.firstName}!`,
    }
  })
  return {
    format: RECORDING_FORMAT,
    from: 'https://api.club.example',
    limits: { activations: 100, entries: limit, participants: limit },
    startedAt: NOW,
    finishedAt: NOW,
    serverDate: null,
    accounts: [
      {
        apiKey: 'key',
        premium: true,
        activations: paged(activations, '/activations/list', 'activations'),
        entries: Object.fromEntries(
          activations.map(
            (a, i) => [a.id, paged(byActivation[i]!, `/activations/${a.id}`, 'entries', { activation: a })] as const,
          ),
        ),
        participants: paged(participants, '/experience/participants', 'participants'),
        completed: {},
        winners: {},
      },
    ],
  }
}
