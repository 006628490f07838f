import type { RequestRecord } from '../context.js'
import { apiError, jsonResponse } from '../errors.js'
import { param } from './answers.js'
import type { AdminRoute } from './context.js'

/** `2.5 MB`, `256 KB`, `900 bytes`: a size for a message. */
function sizeOf(bytes: number): string {
  if (bytes >= 1 << 20) return `${+(bytes / (1 << 20)).toFixed(1)} MB`
  if (bytes >= 1 << 10) return `${+(bytes / (1 << 10)).toFixed(1)} KB`
  return `${bytes} bytes`
}

/** Why an answer has no body kept, as its entry says: dropped, an error, a HEAD, or cut by a fault rule. */
function noBody(entry: RequestRecord): string {
  if (entry.status === 0) return `its connection was dropped by the fault rule ${entry.fault}`
  if (entry.error !== undefined) return `it was answered ${entry.status} with {"error"}, whose message is in its entry`
  if (entry.method === 'HEAD') return 'a HEAD is answered no body'
  return `the fault rule ${entry.fault} dropped its connection half-way through the body`
}

/**
 * `GET /__emulator/requests/:seq/body`: the body answered to the journal's request `seq` (a 200's), its
 * bytes as they were sent, while the journal keeps it among its last bodies; else a 404 saying why
 * (no body, too large, dropped as older), and a 400 for a `seq` that is no request's number.
 */
export const readAnsweredBody: AdminRoute = {
  method: 'get',
  path: '/requests/:seq/body',
  what: "read a request's body",
  readsWorld: false,
  answer: ({ control }, { params }) => {
    const journal = control.journal
    const text = param(params['seq'])
    const seq = /^\d{1,15}$/.test(text) ? Number(text) : 0
    if (!(seq >= 1)) throw apiError(400, `seq must be a request's number (1 or more), got ${JSON.stringify(text)}`)
    if (seq > journal.lastSeq) {
      const last = journal.lastSeq === 0 ? 'none was made yet' : `the last is #${journal.lastSeq}`
      throw apiError(404, `No request #${seq}: ${last}`)
    }
    const entry = journal.get(seq)
    if (entry === undefined) {
      const oldest = journal.oldestSeq > journal.lastSeq ? 'it is empty' : `its oldest is #${journal.oldestSeq}`
      throw apiError(404, `Request #${seq} is no longer in the journal: ${oldest}`)
    }
    const body = journal.body(seq)
    if (body.kept) return jsonResponse(200, body.bytes, { 'cache-control': 'no-store' })
    const keeps = `the journal keeps the bodies of its last ${body.answers} answers within ${sizeOf(body.maxBytes)}`
    if (body.why === 'too-large')
      throw apiError(
        404,
        `The body of request #${seq} (${sizeOf(body.size!)}) is not kept: it is larger than the ${sizeOf(body.maxBytes)} the journal keeps of bodies`,
      )
    if (body.why === 'dropped')
      throw apiError(404, `The body of request #${seq} is no longer kept: ${keeps}, the oldest dropped first`)
    throw apiError(404, `Request #${seq} has no body kept: ${noBody(entry)}`)
  },
}
