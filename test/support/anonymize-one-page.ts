// One-page recordings built by hand, for the tests of anonymizeRecording rule by rule: one activation,
// its entries on one page and its participants on another.
import { anonymizeRecording, type AnonymizeOptions } from '../../src/world/anonymize.js'
import { RECORDING_FORMAT, type Recording } from '../../src/world/recording.js'
import type { Obj } from './anonymize-fixtures.js'

export const ACTIVATION = { id: 'A1', type: 'form', title: 'Spring sign-up', slug: 'spring' }
export const at = (n: number) => ({ iso: new Date(Date.UTC(2026, 5, 1, 12, n)).toISOString(), ts: 1780315200 + n * 60 })

/** An entry of a person `n` (ana0@mail.test, Ana0 Diaz0), with `fields` over it. */
export const entry = (n: number, fields: Obj = {}): Obj => ({
  id: `E${n}`,
  email: `ana${n}@mail.test`,
  firstName: `Ana${n}`,
  lastName: `Diaz${n}`,
  extras: [],
  enteredAt: at(n),
  ...fields,
})

/** A participant of the same person `n`. */
export const participant = (n: number, fields: Obj = {}): Obj => ({
  id: `P${n}`,
  email: `ana${n}@mail.test`,
  firstName: `Ana${n}`,
  lastName: `Diaz${n}`,
  extras: [],
  activationsEntered: [],
  firstEnteredAt: at(n),
  ...fields,
})

/** A recording of one activation with `entries` and `participants`, each list on one page. */
export function recordingOf(entries: Obj[], participants: Obj[] = [], body: Obj = {}): Recording {
  return {
    format: RECORDING_FORMAT,
    from: 'https://api.club.example',
    limits: { activations: 100, entries: 1000, participants: 100 },
    startedAt: '2026-06-01T12:00:00Z',
    finishedAt: '2026-06-01T12:00:00Z',
    serverDate: null,
    accounts: [
      {
        apiKey: 'key',
        premium: true,
        activations: [
          { path: '/activations/list?limit=100', status: 200, body: { activations: [ACTIVATION], next: null } },
        ],
        entries: {
          A1: [
            {
              path: '/activations/A1?limit=1000',
              status: 200,
              body: { activation: ACTIVATION, entries, next: null, ...body },
            },
          ],
        },
        participants: [{ path: '/experience/participants?limit=100', status: 200, body: { participants, next: null } }],
        completed: {},
        winners: {},
        states: {
          running: [
            {
              path: '/activations/list?state=running&limit=100',
              status: 200,
              body: { activations: [ACTIVATION], next: null },
            },
          ],
        },
      },
    ],
  }
}

/** The entries and participants of the anonymized recording. */
export function anonymized(recording: Recording, options: AnonymizeOptions = { seed: 11 }) {
  const out = anonymizeRecording(recording, options)
  const account = out.accounts[0]!
  const page = account.entries['A1']![0]!.body as Obj
  return {
    out,
    json: JSON.stringify(out),
    page,
    entries: page['entries'] as Obj[],
    participants: (account.participants[0]!.body as Obj)['participants'] as Obj[],
  }
}
