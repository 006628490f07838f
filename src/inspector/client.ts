// The inspector's script, run by the browser (served as client.js at /__emulator/client.js), bundled
// with the modules beside it and the src/contract/ functions they use into one file that imports
// nothing. Every figure it shows and every change it makes goes through the documented admin API
// under /__emulator (api.ts).
import { loadAccounts } from './accounts.js'
import { admin } from './api.js'
import { showPage, wireBrowse } from './browse.js'
import { showClock, tookClock, wireClock } from './clock.js'
import { $, act } from './dom.js'
import { loadFaults, wireFaults } from './faults.js'
import { followJournal, wireJournal } from './journal.js'
import { reloadFaults } from './reload.js'
import { currentView, onRefresh, select, viewOfAddress, wireTabs } from './tabs.js'

/** Wires the page, shows the world's scenario, clock and accounts, follows the journal, and shows the view the address names. */
async function start(): Promise<void> {
  onRefresh('accounts', loadAccounts)
  onRefresh('faults', loadFaults)
  onRefresh('activations', () => showPage('activations'))
  // The entries of no activation yet: nothing to ask.
  onRefresh('entries', async () => {
    if ($<HTMLInputElement>('#entries-form [name=id]').value) await showPage('entries')
  })
  onRefresh('participants', () => showPage('participants'))
  wireTabs()
  wireClock()
  wireBrowse()
  wireJournal()
  wireFaults()
  const state = await admin('GET', '/state')
  $('#scenario').textContent = `${state.scenario}, seed ${state.seed}`
  tookClock(state.clock)
  await loadAccounts()
  setInterval(showClock, 1000)
  // What others change (a test, curl: the clock, the rules) shows within 5 s; what requests change, at
  // once. Not the accounts: their table has fields a person may be typing in.
  setInterval(() => {
    act(async () => tookClock(await admin('GET', '/clock')))
    if (currentView() === 'faults') reloadFaults()
  }, 5000)
  void followJournal()
  await select(viewOfAddress())
}

act(start)
