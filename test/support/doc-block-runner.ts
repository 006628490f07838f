// Runs the guides' TypeScript blocks one after the other in this one process (started with
// `node --import tsx`, in the scratch project, so that each block's imports resolve there), each
// block's console.log kept apart, and prints what each printed and how it failed as one JSON object.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { format } from 'node:util'

/** What one block printed, and its error (null when it ran to its end). */
export type BlockRun = { output: string; error: string | null }

const runs: Record<string, BlockRun> = {}
const print = process.stdout.write.bind(process.stdout)
for (const file of process.argv.slice(2)) {
  let output = ''
  console.log = (...args: unknown[]) => void (output += `${format(...args)}\n`)
  try {
    await import(pathToFileURL(resolve(file)).href)
    runs[file] = { output, error: null }
  } catch (error) {
    runs[file] = { output, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }
  }
}
print(JSON.stringify(runs))
process.exit(0)
