/**
 * The error of a request that never reached the emulator (nothing listening, a wrong host): Node's
 * fetch says only `fetch failed`, with the reason in its cause. Says where, who asked, what to start,
 * and `where` the URL came from.
 */
export function unreachable(who: string, url: string, error: unknown, where: string): Error {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause
  const why =
    typeof cause?.code === 'string'
      ? cause.code
      : typeof cause?.message === 'string'
        ? cause.message
        : error instanceof Error
          ? error.message
          : String(error)
  return new Error(
    `${who} could not reach the emulator at ${new URL(url).origin} (${why}): start it first (npx activation-emulator, or a global setup that starts it), or point ${where} at where it runs`,
    { cause: error },
  )
}
