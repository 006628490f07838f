import type { RemoteClientOptions } from '../remote/client.js'

/** The flags of `record` and `verify` that bound their client of the upstream, as parsed. */
export type RemoteBoundArgs = {
  concurrency?: number | undefined
  rps?: number | undefined
  retries?: number | undefined
  connectTimeout?: number | undefined
  idleTimeout?: number | undefined
  answerTimeout?: number | undefined
  maxWait?: number | undefined
  maxPageBytes?: number | undefined
  allowRedirects?: boolean | undefined
}

/** The client's bounds the flags give (seconds turned to milliseconds); the client's defaults for the rest. */
export function remoteBounds(args: RemoteBoundArgs): Partial<RemoteClientOptions> {
  const ms = (seconds: number | undefined) => (seconds === undefined ? undefined : Math.round(seconds * 1000))
  const bounds: Partial<RemoteClientOptions> = {
    connectTimeoutMs: ms(args.connectTimeout),
    idleTimeoutMs: ms(args.idleTimeout),
    answerTimeoutMs: ms(args.answerTimeout),
    maxWaitSeconds: args.maxWait,
    maxPageBytes: args.maxPageBytes,
    crossOriginRedirects: args.allowRedirects,
  }
  return Object.fromEntries(Object.entries(bounds).filter(([, value]) => value !== undefined))
}
