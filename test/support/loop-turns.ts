/**
 * Counts the turns of the event loop while a piece of work runs: a setImmediate chain that
 * runs only between the work's steps. `turns` says the work yielded; `worst` is the longest
 * gap between two turns, the longest step, in wall time; `worstCpu` the most CPU time the process
 * spent between two turns (figures to compare with a baseline of the same run, never with an
 * absolute time: on a loaded machine a step's wall time grows with the other processes' turns,
 * its CPU time does not, so a comparison with a baseline measured by `cpuMs` holds at any load).
 */
export type LoopTurns = { readonly turns: number; readonly worst: number; readonly worstCpu: number }

/** The CPU time this process has used, in milliseconds (user and system, every thread). */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

export function countTurns(): { stop(): LoopTurns } {
  let turns = 0
  let worst = 0
  let worstCpu = 0
  let last = performance.now()
  let lastCpu = cpuMs()
  let ticking = true
  const tick = (): void => {
    if (!ticking) return
    const now = performance.now()
    const cpu = cpuMs()
    worst = Math.max(worst, now - last)
    worstCpu = Math.max(worstCpu, cpu - lastCpu)
    last = now
    lastCpu = cpu
    turns++
    setImmediate(tick)
  }
  setImmediate(tick)
  return {
    stop() {
      ticking = false
      return { turns, worst, worstCpu }
    },
  }
}
