// 2. Memory: resident memory (and heap) after a full GC added by 100 idle sandboxes, beside one more
// busy emulator. Run first, while the process holds only the host.
import type { Emulator, Sandbox } from '../../src/index.js'
import { ask, busy, FIRST_REQUEST, KEY, keyOf } from './busy.js'
import { MB, met } from './figures.js'
import { settled } from './settled.js'

/**
 * Measures what 100 idle sandboxes of `host` and one more busy emulator add, and prints the table
 * when `print`. Returns that emulator, loaded whole (the reads' baseline), and the target's row.
 */
export async function memory(host: Emulator, print: boolean): Promise<{ plain: Emulator; target?: string }> {
  const before = await settled()
  const idle: Sandbox[] = []
  for (let i = 0; i < 100; i++) {
    const sandbox = await host.sandbox()
    await ask(host, FIRST_REQUEST, keyOf(sandbox))
    idle.push(sandbox)
  }
  const withSandboxes = await settled()
  const plain = await busy()
  await ask(plain, FIRST_REQUEST, KEY)
  const withEmulator = await settled()
  // Its world loaded whole, as any read of the participants, a page's cursor or a change does.
  await ask(plain, '/experience/participants?limit=100', KEY)
  const withWhole = await settled()
  for (const sandbox of idle) await sandbox.close()
  if (!print) return { plain }
  const added = (a: NodeJS.MemoryUsage, b: NodeJS.MemoryUsage) =>
    `${((b.rss - a.rss) / MB).toFixed(1)} | ${((b.heapUsed - a.heapUsed) / MB).toFixed(1)}`
  const sandboxesRss = (withSandboxes.rss - before.rss) / MB
  console.log('\n2. Memory after a full GC, MB added:')
  console.log('| | resident (RSS) | heap used |')
  console.log('| --- | --- | --- |')
  console.log(`| 100 idle sandboxes (each created and asked one page) | ${added(before, withSandboxes)} |`)
  console.log(
    `| one sandbox (the 100's share) | ${(sandboxesRss / 100).toFixed(2)} | ${((withSandboxes.heapUsed - before.heapUsed) / MB / 100).toFixed(2)} |`,
  )
  console.log(`| one more busy emulator, created and asked one page | ${added(withSandboxes, withEmulator)} |`)
  console.log(`| the same, its world loaded whole (one participants page) | ${added(withSandboxes, withWhole)} |`)
  return {
    plain,
    target: `| 100 idle sandboxes, RSS added | under 50 MB | ${sandboxesRss.toFixed(1)} MB (one more busy emulator: ${((withEmulator.rss - withSandboxes.rss) / MB).toFixed(1)} MB, loaded whole ${((withWhole.rss - withSandboxes.rss) / MB).toFixed(1)} MB) | ${met(sandboxesRss < 50)} |`,
  }
}
