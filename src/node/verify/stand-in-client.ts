// A thin stand-in for src/node/remote/client.ts (branch `client`), with its interface (see SHARED-27.md),
// until that branch is merged: then this file goes and verify imports the real client.

/** One answer of the upstream, read whole. */
export type RemoteAnswer = { status: number; headers: Headers; text: string; body: unknown }

/** What the client is told: the base URL, how politely to ask, and a fetch for tests. */
export type RemoteClientOptions = {
  baseUrl: string
  concurrency?: number
  rps?: number
  retries?: number
  signal?: AbortSignal
  onEvent?: (event: { type: 'request' | 'retry' | 'wait'; path: string; seconds?: number; reason?: string }) => void
  fetch?: typeof fetch
}

/** The stand-in: requests one at a time at most `rps` a second; waits out a 429 unless `raw`. */
export function createRemoteClient(options: RemoteClientOptions) {
  const doFetch = options.fetch ?? fetch
  const rps = options.rps ?? 10
  const gap = Number.isFinite(rps) && rps > 0 ? 1000 / rps : 0
  let last = 0
  let requests = 0
  let waits = 0
  let waitedMs = 0
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  async function once(
    path: string,
    init: { apiKey?: string; authorization?: string; method?: string },
  ): Promise<RemoteAnswer> {
    const at = Math.max(performance.now(), last + gap)
    last = at
    if (at > performance.now()) await sleep(at - performance.now())
    requests++
    const headers: Record<string, string> = {}
    if (init.authorization !== undefined) headers['authorization'] = init.authorization
    else if (init.apiKey !== undefined) headers['authorization'] = `Api-Key ${init.apiKey}`
    const url = options.baseUrl.replace(/\/+$/, '') + path
    const response = await doFetch(url, {
      method: init.method ?? 'GET',
      headers,
      ...(options.signal ? { signal: options.signal } : {}),
    })
    const text = await response.text()
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }
    return { status: response.status, headers: response.headers, text, body }
  }
  return {
    async request(
      path: string,
      init: { apiKey?: string; authorization?: string; method?: string; raw?: boolean } = {},
    ): Promise<RemoteAnswer> {
      for (;;) {
        const answer = await once(path, init)
        if (answer.status !== 429 || init.raw) return answer
        const message = (answer.body as { error?: unknown } | undefined)?.error
        const seconds =
          Number(answer.headers.get('retry-after')) || Number(/(\d+) seconds?/.exec(String(message))?.[1]) || 1
        waits++
        waitedMs += seconds * 1000
        options.onEvent?.({ type: 'wait', path, seconds })
        await sleep(seconds * 1000)
      }
    },
    stats: () => ({ requests, retries: 0, waits, waitedMs }),
  }
}

/** The client verify uses. */
export type RemoteClient = ReturnType<typeof createRemoteClient>
