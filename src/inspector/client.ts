// The inspector's script, run by the browser (served as client.js at /__emulator/client.js), bundled
// with the modules beside it and the src/contract/ functions they use into one file that imports
// nothing. Every figure it shows and every change it makes goes through the documented admin API
// under /__emulator (api.ts), of the world the address names (world.ts): the host's or a sandbox's.
import { loadAccounts } from './accounts.js'
import { admin, readWorld } from './api.js'
import { showPage, wireBrowse } from './browse.js'
import { showClock, tookClock, wireClock } from './clock.js'
import { $, act } from './dom.js'
import { entriesHint } from './entries.js'
import { loadFaults, wireFaults } from './faults.js'
import { followJournal, wireJournal } from './journal.js'
import { loadOverview } from './overview.js'
import { reloadFaults, reloadSandboxes } from './reload.js'
import { loadReport } from './report.js'
import { loadSandboxes, wireSandboxes } from './sandboxes.js'
import { currentView, onRefresh, select, viewOfAddress, wireTabs } from './tabs.js'
import { goneMessage, showWorld, wireWorld } from './world.js'

/**
 * Wires the page, shows the world viewed (a sandbox's id, or that it is gone), its scenario, clock and
 * accounts, follows its journal, and shows the view the address names.
 */
async function start(): Promise<void> {
  wireWorld()
  wireTabs()
  const world = await readWorld()
  // A sandbox that has ended or expired: its message and the way back, nothing else.
  if (world === null) return
  showWorld(world.label ?? null)
  onRefresh('overview', loadOverview)
  onRefresh('accounts', loadAccounts)
  onRefresh('faults', loadFaults)
  onRefresh('activations', () => showPage('activations'))
  // The entries of no activation yet: nothing to ask, and a hint of how to choose one.
  onRefresh('entries', async () => {
    if ($<HTMLInputElement>('#entries-form [name=id]').value) await showPage('entries')
    else entriesHint()
  })
  onRefresh('participants', () => showPage('participants'))
  onRefresh('sandboxes', loadSandboxes)
  onRefresh('report', loadReport)
  wireClock()
  wireBrowse()
  wireJournal()
  wireFaults()
  wireSandboxes()
  const state = await admin('GET', '/state')
  $('#scenario').textContent = `${state.scenario}, seed ${state.seed}`
  tookClock(state.clock)
  await loadAccounts()
  setInterval(showClock, 1000)
  // What others change (a test, curl: the clock, the rules) shows within 5 s; what requests change, at
  // once. Not the accounts: their table has fields a person may be typing in.
  setInterval(() => {
    if (goneMessage() !== null) return
    act(async () => tookClock(await admin('GET', '/clock')))
    if (currentView() === 'faults') reloadFaults()
    if (currentView() === 'sandboxes') reloadSandboxes()
  }, 5000)
  void followJournal()
  await select(viewOfAddress())
}

act(start)
