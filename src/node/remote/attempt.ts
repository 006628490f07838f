import type { Transport } from './transport.js'

// One attempt of the remote client at a request: sent through the transport, its body read within the
// idle and answer timeouts and the size bound, and its redirects followed within the base URL's origin
// (or to any origin when allowed, without the Authorization header). What can go wrong is told apart:
// a lost answer (worth asking again), a body too large and a redirect refused (not worth it).

/** An answer of the upstream: its status, headers, body text and, when the text is JSON, the parsed body. */
export type RemoteAnswer = { status: number; headers: Headers; text: string; body: unknown }

/** What the attempts of a client need. */
export type AttemptOptions = {
  /** The base URL, without a trailing slash. */
  base: string
  transport: Transport
  bounds: { idleTimeoutMs: number; answerTimeoutMs: number; maxPageBytes: number; crossOriginRedirects?: boolean }
  /** Told when an attempt ends: its status, or 0 when it was lost. */
  emit: (event: { type: 'answer'; method: string; path: string; status: number }) => void
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 5

/** An answer that is lost on the way: the request is worth asking again. */
export class LostAnswer extends Error {}

/** A body past the size bound, `bytes` long or more: not worth asking again (the client words the error). */
export class TooLarge extends Error {
  constructor(readonly bytes: number) {
    super()
  }
}

/** A redirect the client does not follow. */
export class Refused extends Error {}

/** One attempt at `path` (relative to the base URL), following redirects: resolves with the answer or rejects. */
export function attempts(options: AttemptOptions) {
  const { base, transport, bounds } = options
  const origin = new URL(base).origin
  const emit = options.emit

  /** One attempt at `url`, its body read within the idle and answer timeouts and the size bound. */
  async function once(
    what: { method: string; path: string },
    url: string,
    method: string,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<RemoteAnswer> {
    const attempt = new AbortController()
    const onAbort = () => attempt.abort(signal!.reason)
    if (signal?.aborted) onAbort()
    signal?.addEventListener('abort', onAbort, { once: true })
    let idle: NodeJS.Timeout | undefined
    let stage = 'no answer'
    const arm = () => {
      clearTimeout(idle)
      idle = setTimeout(
        () => attempt.abort(new LostAnswer(`${stage}: nothing came for ${bounds.idleTimeoutMs / 1000} s`)),
        bounds.idleTimeoutMs,
      )
    }
    const whole = setTimeout(
      () => attempt.abort(new LostAnswer(`${stage}: the answer took more than ${bounds.answerTimeoutMs / 1000} s`)),
      bounds.answerTimeoutMs,
    )
    arm()
    let status = 0
    try {
      const answer = await transport(url, { method, headers, signal: attempt.signal })
      status = answer.status
      stage = `the connection dropped in the body of a ${status}`
      const length = Number(answer.headers.get('content-length'))
      if (length > bounds.maxPageBytes) throw new TooLarge(length)
      arm()
      const chunks: Uint8Array[] = []
      let size = 0
      if (answer.body) {
        for await (const chunk of answer.body) {
          arm()
          size += chunk.byteLength
          if (size > bounds.maxPageBytes) throw new TooLarge(size)
          chunks.push(chunk)
        }
      }
      const text = new TextDecoder().decode(Buffer.concat(chunks))
      let body: unknown = undefined
      try {
        body = JSON.parse(text)
      } catch {
        // Not JSON (an empty body included): the caller judges the text.
      }
      return { status, headers: answer.headers, text, body }
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      if (error instanceof TooLarge) throw error
      const reason: unknown = attempt.signal.reason
      if (reason instanceof LostAnswer) throw reason
      throw new LostAnswer(`${stage} (${describe(error)})`)
    } finally {
      clearTimeout(idle)
      clearTimeout(whole)
      signal?.removeEventListener('abort', onAbort)
      // Whatever is left of an answer given up (too large, timed out) is not read.
      attempt.abort()
      emit({ type: 'answer', ...what, status })
    }
  }

  /** One attempt, following redirects within the base URL's origin (or to any with `crossOriginRedirects`). */
  async function follow(
    path: string,
    method: string,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<RemoteAnswer> {
    let url = base + path
    let sending = headers
    const what = { method, path }
    for (let hops = 0; ; hops++) {
      const answer = await once(what, url, method, sending, signal)
      const location = answer.headers.get('location')
      if (!REDIRECTS.has(answer.status) || location === null) return answer
      let target: URL
      try {
        target = new URL(location, url)
      } catch {
        throw new Refused(`it was redirected to ${JSON.stringify(location.slice(0, 200))}, which is not a URL`)
      }
      const where = `${target.origin}${target.pathname}`
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        throw new Refused(`it was redirected to ${target.protocol} (only http: and https: are followed)`)
      }
      if (hops >= MAX_REDIRECTS) throw new Refused(`more than ${MAX_REDIRECTS} redirects, the last to ${where}`)
      if (target.origin !== origin) {
        if (!bounds.crossOriginRedirects) {
          throw new Refused(
            `it was redirected to another origin, ${where}: not followed (--allow-redirects follows it, without the API key)`,
          )
        }
        // The key is for the base URL's origin only.
        sending = Object.fromEntries(Object.entries(sending).filter(([name]) => name !== 'authorization'))
      }
      if (answer.status === 303 && method !== 'HEAD') method = 'GET'
      url = target.href
    }
  }

  return follow
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  return `${error.message}${cause}`
}
