import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getResponse } from 'msw'
import type { Emulator } from '../../src/index.js'
import { createRemoteClient } from '../../src/node/remote/client.js'
import { DEFAULT_RECORD_LIMITS, type RecordLimits } from '../../src/node/record/record-options.js'
import { recordAccounts } from '../../src/node/record/recorder.js'
import type { Recording } from '../../src/world/recording.js'

/**
 * Records an emulator's accounts with `record`'s own walker and client, their fetch answered by the
 * emulator's handlers (msw's getResponse, no network).
 */
export async function recordEmulator(
  emulator: Emulator,
  apiKeys: string[],
  limits: RecordLimits = DEFAULT_RECORD_LIMITS,
): Promise<Recording> {
  const fetchThrough = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await getResponse(emulator.handlers, new Request(input, init))
    if (!response) throw new Error(`No handler answered ${String(input)}`)
    return response
  }
  const client = createRemoteClient({
    baseUrl: emulator.baseUrl,
    rps: Infinity,
    fetch: fetchThrough as typeof fetch,
  })
  const dir = mkdtempSync(join(tmpdir(), 'record-emulator-'))
  try {
    return await recordAccounts({ client, apiKeys, limits, checkpoint: join(dir, 'checkpoint') })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
