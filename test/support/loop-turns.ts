/**
 * Counts the turns of the event loop while a piece of work runs: a setImmediate chain that
 * runs only between the work's steps. `turns` says the work yielded; `worst` is the longest
 * gap between two turns, the longest step (a figure to compare with a baseline of the same
 * run, never with an absolute time).
 */
export type LoopTurns = { readonly turns: number; readonly worst: number }

export function countTurns(): { stop(): LoopTurns } {
  let turns = 0
  let worst = 0
  let last = performance.now()
  let ticking = true
  const tick = (): void => {
    if (!ticking) return
    const now = performance.now()
    worst = Math.max(worst, now - last)
    last = now
    turns++
    setImmediate(tick)
  }
  setImmediate(tick)
  return {
    stop() {
      ticking = false
      return { turns, worst }
    },
  }
}
