// Memory as the process holds it: garbage collected, and given back to the system.
import { MB } from './figures.js'

/** Collects garbage twice (the script runs with --expose-gc), so that what is measured is what is held. */
export function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('Failed to collect garbage: run with node --expose-gc (npm run bench:sandboxes)')
  gc()
  gc()
}

/**
 * The process's memory once it has settled: collections, a pause, again, until the resident memory
 * moves by less than 1 MB (at most 10 times). After a world is built or loaded, the collector gives
 * freed pages back to the system over the next seconds, and a figure taken before that ends reads as
 * memory that later work freed.
 */
export async function settled(): Promise<NodeJS.MemoryUsage> {
  let last = process.memoryUsage()
  for (let i = 0; i < 10; i++) {
    collect()
    await new Promise((resolve) => setTimeout(resolve, 500))
    collect()
    const now = process.memoryUsage()
    if (Math.abs(now.rss - last.rss) < MB) return now
    last = now
  }
  return last
}
