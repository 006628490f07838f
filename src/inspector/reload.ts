import { loadAccounts } from './accounts.js'
import { say } from './dom.js'
import { loadFaults } from './faults.js'
import { loadSandboxes } from './sandboxes.js'

/**
 * Runs `load` now, or once more when the run under way ends: a burst of journal events (a client's
 * polling, the stream's first 500 rows) makes one or two loads at a time, never a queue of them.
 */
function coalesced(load: () => Promise<void>): () => void {
  let running = false
  let again = false
  const run = (): void => {
    running = true
    again = false
    load()
      .catch((error: Error) => say(error.message, true))
      .finally(() => {
        running = false
        if (again) run()
      })
  }
  return () => {
    if (running) again = true
    else run()
  }
}

/** Reads the accounts again (what is left in their windows), coalesced. */
export const reloadAccounts = coalesced(() => loadAccounts())
/** Reads the fault rules again (what they matched and fired), coalesced. */
export const reloadFaults = coalesced(() => loadFaults())
/** Reads the sandboxes again (their requests, changes, expiry), coalesced. */
export const reloadSandboxes = coalesced(() => loadSandboxes())
