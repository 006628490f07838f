// Long work on the event loop, cut into turns: between them, every other request is answered.

/** How long one turn of long work may hold the event loop before it yields. */
export const TURN_MS = 10

/**
 * Gives the event loop its turn, then calls `next`: setImmediate in Node (pending I/O first); a
 * browser has none, and a zero timeout is its nearest turn.
 */
const afterTurn: (next: () => void) => void =
  typeof setImmediate === 'function' ? (next) => void setImmediate(next) : (next) => void setTimeout(next, 0)

/** Resolves after the event loop's next turn (pending I/O first). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => afterTurn(resolve))

/**
 * A check to call often during long work: it resolves at once while the turn lasts, and after the
 * event loop has had its turn (setImmediate: pending I/O first) once TURN_MS have passed.
 * @example const turn = turns(); for (const record of records) { check(record); await turn() }
 */
export function turns(ms = TURN_MS): () => Promise<void> | undefined {
  let until = performance.now() + ms
  return () => {
    if (performance.now() < until) return undefined
    return new Promise<void>((resolve) =>
      afterTurn(() => {
        until = performance.now() + ms
        resolve()
      }),
    )
  }
}

/**
 * Runs work written as a generator that yields between its steps, giving the event loop its turn
 * whenever TURN_MS have passed; resolves to what it returns.
 * @example const dump = await inTurns(checkDump(value, 'data'))
 */
export async function inTurns<T>(work: Generator<unknown, T>): Promise<T> {
  const turn = turns()
  for (let step = work.next(); ; step = work.next()) {
    if (step.done) return step.value
    const wait = turn()
    if (wait) await wait
  }
}

/** Runs work written as a generator to its end at once (the synchronous twin of `inTurns`). */
export function atOnce<T>(work: Generator<unknown, T>): T {
  for (let step = work.next(); ; step = work.next()) if (step.done) return step.value
}
