import { sandboxGone, scope } from './world.js'

// How the page asks the documented admin API under /__emulator (the journal's stream, which never ends,
// is read by journal.ts), of the world viewed: the host's, or a sandbox's under /__emulator/sandboxes/<id>.
// What it shows of the world comes from `GET /__emulator/view/<account>/<API path>`, the API's own
// answer, never journaled or rate-limited.

export type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any -- what the admin API answers

/** Where the admin API is, at the page's origin. */
export const ADMIN = '/__emulator'
const TOKEN_KEY = 'activation-emulator-admin-token'

let token = sessionStorage.getItem(TOKEN_KEY)

/** The headers that carry the admin token, when the emulator asked for one. */
export function withToken(headers: Record<string, string>): Record<string, string> {
  if (token) headers['authorization'] = `Bearer ${token}`
  return headers
}

/**
 * The admin API's answer to a request (`path` under /__emulator, of the host), as `{ status, body }`. Asked
 * through `POST /__emulator/inspector/answer`, which answers 200 with the admin API's status inside: a
 * browser writes a red console error for every response of 400 or more, and this page's are ordinary (an
 * unknown activation, a rule typed wrong). Asks for the admin token on a 401; says when the sandbox
 * viewed is gone.
 */
async function answer(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${ADMIN}/inspector/answer`, {
    method: 'POST',
    headers: withToken({ 'content-type': 'application/json' }),
    body: JSON.stringify({ method, path, ...(body === undefined ? {} : { body }) }),
  })
  if (!response.ok) throw new Error(`POST ${ADMIN}/inspector/answer: ${response.status}`)
  const answered = (await response.json()) as { status: number; body: Json }
  const ofWorld = scope !== '' && (path === scope || path.startsWith(`${scope}/`))
  if (ofWorld && answered.status === 404 && /^Sandbox not found\b/.test(answered.body?.error))
    sandboxGone(answered.body.error)
  if (answered.status === 401) {
    const given = prompt('This emulator has an admin token (--admin-token). Token:')
    if (given) {
      token = given
      sessionStorage.setItem(TOKEN_KEY, given)
      return answer(method, path, body)
    }
  }
  return answered
}

/**
 * One admin request of the host, whichever world is viewed (the sandboxes are the host's): its body; its
 * `{"error"}` becomes a thrown Error with that message.
 */
export async function hostAdmin(method: string, path: string, body?: unknown): Promise<Json> {
  const { status, body: answered } = await answer(method, path, body)
  if (status >= 400) throw new Error(`${method} ${ADMIN}${path}: ${status} ${answered?.error}`)
  return answered
}

/** One admin request of the world viewed (`/faults`: the host's, or a sandbox's `/sandboxes/<id>/faults`), as `hostAdmin`. */
export const admin = (method: string, path: string, body?: unknown): Promise<Json> =>
  hostAdmin(method, `${scope}${path}`, body)

/**
 * The API's answer to `path?query` for an account of the world viewed, through `GET /__emulator/view/...`:
 * never journaled, never limited.
 */
export async function view(
  account: string,
  path: string,
  query: URLSearchParams,
): Promise<{ status: number; body: Json }> {
  const search = query.toString()
  return answer('GET', `${scope}/view/${encodeURIComponent(account)}${path}${search ? `?${search}` : ''}`)
}

/**
 * The body answered to the journal's request `seq` in the world viewed, as it was sent
 * (`GET /__emulator/requests/<seq>/body`), or the 404 that says why it is not kept.
 */
export const answeredBody = (seq: number): Promise<{ status: number; body: Json }> =>
  answer('GET', `${scope}/requests/${seq}/body`)

/**
 * The sandbox viewed as `GET /__emulator/sandboxes/<id>` answers it (its label, its counts), or null when
 * it is gone (the page then says so); `{}` for the host, always there.
 */
export async function readWorld(): Promise<Json | null> {
  if (scope === '') return {}
  const { status, body } = await answer('GET', scope)
  if (status === 200) return body
  if (status === 404) return null
  throw new Error(`GET ${ADMIN}${scope}: ${status} ${body?.error}`)
}
