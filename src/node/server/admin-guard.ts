import type { IncomingMessage } from 'node:http'
import { ADMIN_PREFIX, type TokenRefusal } from '../../../handlers/admin/index.js'
import { notJsonMessage } from '../../../handlers/errors.js'
import { hasRequestBody } from './bodies.js'

// The admin API's doors against other pages: a request from a foreign origin (or another site's page
// that sent no Origin) or under a foreign Host name, or with a body that is not JSON, is refused before
// any handler runs.

/** Whether an address is this machine's own (127.0.0.0/8, ::1, localhost): only this machine reaches it. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::ffff:127.0.0.1'
}

/**
 * Whether a path is under the admin prefix (`/__emulator`, in any case, as the handlers match it). Give
 * it the pathname of the URL the handlers are given (normalized: no dot segment), never the raw target.
 */
export function isAdminPath(pathname: string): boolean {
  return pathname.slice(0, ADMIN_PREFIX.length).toLowerCase() === ADMIN_PREFIX
}

/**
 * The admin API's verdict on a request: refused with a status and message, or let through with its
 * CORS headers. `inspector`: the refusal of the inspector's own endpoint, which answers 200 with the
 * admin API's status inside (see src/node/inspector-handlers.ts).
 */
type AdminVerdict = {
  refused: [number, string] | null
  headers: Readonly<Record<string, string>>
  inspector?: boolean
}
/** The verdict on a request whose URL (the one the handlers are given) has `pathname`, from its headers alone: before any body byte is read. */
export type AdminGuard = (req: IncomingMessage, pathname: string) => AdminVerdict

/**
 * Paths under the admin prefix read without the token, and from any site (GET, HEAD): the inspector
 * page and its script, which hold no data and change nothing (a link on another site opens the inspector).
 */
const OPEN_PATHS = new Set([ADMIN_PREFIX, `${ADMIN_PREFIX}/`, `${ADMIN_PREFIX}/client.js`])
/** The inspector's endpoint, which carries the admin API's answer (a 401 too) inside a 200. */
const INSPECTOR_ANSWER = `${ADMIN_PREFIX}/inspector/answer`

/**
 * The `Sec-Fetch-Site` values a browser gives a request made by a page of another origin. Without an
 * `Origin` (a GET of an `<img>`, a `<script>`, a link followed), the admin API cannot tell which
 * origin it was: it refuses the request as it refuses a foreign `Origin`. With one, the Origin rule decides.
 */
const FOREIGN_SITE = /\b(?:cross|same)-site\b/i

/** The 403's message for a request another site's page made, with no `Origin` to name: the shape of a foreign Origin's. */
function foreignSiteMessage(site: string): string {
  return `Sec-Fetch-Site ${JSON.stringify(site)} without an Origin is not allowed on the admin API: it answers its own pages, loopback origins and the origins given with --admin-origin (adminOrigins)`
}

/** A request's media type (`application/json` of `application/json; charset=utf-8`), lower-case. */
function mediaType(header: string | undefined): string {
  // Stryker disable next-line StringLiteral: no Content-Type is refused whatever stands in for it here (the message names the header as sent)
  const value = header ?? ''
  return value.split(';')[0]!.trim().toLowerCase()
}

/** A host without the brackets of an IPv6 address (`[::1]` -> `::1`). */
function unbracketed(host: string): string {
  // Stryker disable next-line Regex: a host holds brackets only around an IPv6 address, so stripping them at its ends or anywhere is the same
  return host.replace(/^\[|\]$/g, '')
}

/** The host name of a Host header (`[::1]:4010` -> `::1`, `Localhost.:80` -> `localhost`), or null when it has none. */
function hostNameOf(header: string): string | null {
  const m = /^(?:\[([0-9a-f:.]+)\]|([^:[\]]+))(?::\d*)?$/i.exec(header.trim())
  const name = m?.[1] ?? m?.[2]
  return name === undefined ? null : name.toLowerCase().replace(/\.$/, '')
}

/** Whether a host name is this machine's own by definition: localhost (and its subdomains), 127.0.0.0/8, ::1. */
function isLoopbackName(name: string): boolean {
  return name.endsWith('.localhost') || isLoopback(name)
}

/**
 * The admin API's checks, worked out once: its Host must be a loopback name, the address the server
 * listens on or one allowed; an Origin must be the server's own, a loopback one or one allowed, and a
 * request without one must not say it comes from another site's page (`Sec-Fetch-Site`); a body must
 * be JSON. Allowed origins get `Access-Control-Allow-Origin`; nothing else gets a CORS header.
 */
export function adminGuardOf(
  host: string,
  options: { adminOrigins?: readonly string[] | undefined; allowedHosts?: readonly string[] | undefined },
  tokenRefusal: TokenRefusal = () => null,
): AdminGuard {
  const hosts = new Set([host, ...(options.allowedHosts ?? [])].map((h) => unbracketed(h.toLowerCase())))
  hosts.delete('0.0.0.0')
  hosts.delete('::')
  const origins = new Set((options.adminOrigins ?? []).map((o) => o.replace(/\/+$/, '').toLowerCase()))
  const none: Readonly<Record<string, string>> = origins.size ? { vary: 'Origin' } : {}
  return (req, pathname) => {
    const hostHeader = req.headers.host
    if (hostHeader !== undefined) {
      const name = hostNameOf(hostHeader)
      if (name === null || !(isLoopbackName(name) || hosts.has(name))) {
        return {
          refused: [
            403,
            `Host ${JSON.stringify(hostHeader)} is not allowed on the admin API: it answers loopback names and the address it listens on; allow another name with --allowed-host (allowedHosts)`,
          ],
          headers: none,
        }
      }
    }
    const origin = req.headers.origin
    const path = pathname.toLowerCase()
    const open = (req.method === 'GET' || req.method === 'HEAD') && OPEN_PATHS.has(path)
    const site = req.headers['sec-fetch-site']
    if (origin === undefined && !open && site !== undefined && FOREIGN_SITE.test(site)) {
      return { refused: [403, foreignSiteMessage(site)], headers: none }
    }
    // Stryker disable next-line StringLiteral: no origin's host equals any stand-in for a missing Host
    const ownHost = (hostHeader ?? '').toLowerCase()
    let headers = none
    if (origin !== undefined) {
      const asked = origin.replace(/\/+$/, '').toLowerCase()
      if (origins.has(asked)) headers = { 'access-control-allow-origin': origin, vary: 'Origin' }
      else {
        let own = false
        try {
          const url = new URL(origin)
          own =
            (url.protocol === 'http:' || url.protocol === 'https:') &&
            (url.host === ownHost || isLoopbackName(unbracketed(url.hostname)))
        } catch {
          // `null` (a sandboxed frame, a file) and anything else that is not an origin.
        }
        if (!own) {
          return {
            refused: [
              403,
              `Origin ${JSON.stringify(origin)} is not allowed on the admin API: it answers its own pages, loopback origins and the origins given with --admin-origin (adminOrigins)`,
            ],
            headers: none,
          }
        }
      }
    }
    // A preflight carries no Authorization (a browser sends it with the request it asks for).
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined
    if (!preflight && !open) {
      const refused = tokenRefusal(req.headers.authorization)
      if (refused !== null) return { refused: [401, refused], headers, inspector: path === INSPECTOR_ANSWER }
    }
    const hasBody = hasRequestBody(req)
    const type = mediaType(req.headers['content-type'])
    if (hasBody && type !== 'application/json' && !/^application\/[^/]+\+json$/.test(type)) {
      return {
        refused: [415, notJsonMessage(req.headers['content-type'])],
        headers,
      }
    }
    return { refused: null, headers }
  }
}
