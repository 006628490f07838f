import { addressOf, parseAddress } from './address.js'
import { $, act, say } from './dom.js'
import { sandbox } from './world.js'

// The tabs: one view at a time, named by the address (#accounts, #journal..., or a sandbox's
// #sandbox=<id>/journal), so that Back and a link work.

let current = 'overview'
const refreshers = new Map<string, () => Promise<void>>()

/** The view shown. */
export const currentView = () => current

/** Says how a view shows its data afresh: when it is selected, and when the clock moves or the world is reset. */
export function onRefresh(name: string, refresh: () => Promise<void>): void {
  refreshers.set(name, refresh)
}

/** Shows the current view's data afresh (the journal's follows by itself). */
export async function refreshView(): Promise<void> {
  await refreshers.get(current)?.()
}

/** Shows a view, as its tab, a link, Back or a typed address asks; the status line was about the view left. */
export async function select(name: string): Promise<void> {
  if (name !== current) say('')
  current = name
  for (const tab of document.querySelectorAll<HTMLButtonElement>('[role=tab]')) {
    const on = tab.dataset['view'] === name
    tab.setAttribute('aria-selected', String(on))
    tab.tabIndex = on ? 0 : -1
    $(`#view-${tab.dataset['view']}`).hidden = !on
  }
  const address = addressOf({ sandbox, view: name })
  if (location.hash !== address) history.replaceState(null, '', address)
  await refreshView()
}

/** Goes to a view as a link would: a new entry in the history, so that Back comes back here. */
export async function go(name: string): Promise<void> {
  const address = addressOf({ sandbox, view: name })
  if (location.hash !== address) history.pushState(null, '', address)
  await select(name)
}

/** The view the address names, or the overview. */
export const viewOfAddress = () => {
  const name = parseAddress(location.hash).view
  return document.querySelector(`[role=tab][data-view="${CSS.escape(name)}"]`) ? name : 'overview'
}

/** The tabs follow clicks, the arrow keys, and the address (Back, Forward, a link, an address typed). */
export function wireTabs(): void {
  const tabs = [...document.querySelectorAll<HTMLButtonElement>('[role=tab]')]
  for (const tab of tabs) {
    tab.addEventListener('click', () => act(() => go(tab.dataset['view']!)))
    // Arrow keys move between tabs, as in any tab list.
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
      if (!step) return
      const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length]!
      next.focus()
      act(() => go(next.dataset['view']!))
    })
  }
  // Each of these fires one of the two, or both. An address of another world loads the page afresh for
  // it: every view, the accounts, the clock and the journal's stream are then of that world alone.
  for (const type of ['hashchange', 'popstate']) {
    window.addEventListener(type, () => {
      if (parseAddress(location.hash).sandbox !== sandbox) return location.reload()
      const name = viewOfAddress()
      if (name !== current) act(() => select(name))
    })
  }
}
