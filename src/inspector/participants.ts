import type { ParticipantList } from '../contract/responses.js'
import { cell, el } from './dom.js'
import { shortTime } from './format.js'

/** The participants tab's rows of a page of `GET /experience/participants`. */
export function participantRows(body: ParticipantList): HTMLElement[] {
  return body.participants.map((p) =>
    el(
      'tr',
      { 'data-id': p.id },
      cell(p.id),
      cell(p.email),
      cell([p.firstName, p.lastName].filter(Boolean).join(' ')),
      cell(p.firstEnteredAt ? shortTime(p.firstEnteredAt.iso) : ''),
      cell(p.activationsEntered?.length ?? ''),
    ),
  )
}
