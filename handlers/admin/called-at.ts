/**
 * A URL at the emulator's origin, as the client that sent `request` can reach it. A standalone server
 * hands the handlers each request rewritten onto the emulator's own origin (see `serve()`), whose URLs
 * no client can reach; the `Host` the client sent says where it called (plain HTTP, as `serve()`
 * speaks). In-process, the request's own origin is the one, and the URL is kept.
 */
export function calledAt(request: Request, where: string): string {
  const url = new URL(request.url)
  const host = request.headers.get('host')
  if (host === null || host === url.host || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) return where
  const from = new URL(where).origin
  return where.startsWith(from) ? `http://${host}${where.slice(from.length)}` : where
}
