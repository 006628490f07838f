import { writeFileSync } from 'node:fs'
import { createRemoteClient } from '../../src/node/remote/client.js'
import { RecordInterruptedError } from '../../src/node/record/record-interrupted-error.js'
import { recordAccounts } from '../../src/node/record/recorder.js'

// A recording in a process of its own, for the tests that kill it (SIGKILL) or stop it (SIGINT) halfway:
// `tsx record-child.ts <base URL> <checkpoint> <out.json> <limits JSON> <key>...`. It prints a line
// `pages <n>` after each page, and on SIGINT stops as the command line does: exit 130, checkpoint kept.

const [url, checkpoint, out, limits, ...apiKeys] = process.argv.slice(2)
const controller = new AbortController()
process.once('SIGINT', () => controller.abort(new Error('SIGINT')))
const client = createRemoteClient({ baseUrl: url!, rps: Infinity, concurrency: 2 })
try {
  const recording = await recordAccounts({
    client,
    apiKeys,
    limits: JSON.parse(limits!),
    checkpoint: checkpoint!,
    resume: true,
    signal: controller.signal,
    onProgress: (progress) => process.stdout.write(`pages ${progress.pages}\n`),
  })
  writeFileSync(out!, JSON.stringify(recording))
} catch (error) {
  if (!(error instanceof RecordInterruptedError)) throw error
  process.stdout.write(`${error.message}\n`)
  process.exitCode = 130
}
