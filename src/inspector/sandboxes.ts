import { addressOf } from './address.js'
import { hostAdmin, type Json } from './api.js'
import { $, act, cell, el, say } from './dom.js'
import { shortTime } from './format.js'
import { sandbox } from './world.js'

// The sandboxes' tab: the host's open sandboxes (`GET /__emulator/sandboxes`, whichever world is viewed),
// each with a link that views it, and an End button; a button that opens a new one.

/** Reads the open sandboxes and shows them, with how many may be open. */
export async function loadSandboxes(): Promise<void> {
  const { sandboxes, count, max } = await hostAdmin('GET', '/sandboxes')
  $('#sandboxes-count').textContent = `${count} open, at most ${max}`
  const rows: HTMLElement[] = sandboxes.map(sandboxRow)
  if (rows.length === 0) rows.push(el('tr', {}, el('td', { colSpan: 9, className: 'muted' }, 'No sandbox is open')))
  $('#sandboxes').replaceChildren(...rows)
}

/** A sandbox's row (the admin API's SandboxInfo): its id links to the inspector of its world. */
function sandboxRow(s: Json): HTMLElement {
  const viewed = s.id === sandbox
  const link = el('a', { href: addressOf({ sandbox: s.id, view: 'accounts' }), title: 'View this sandbox' }, s.id)
  if (viewed) link.setAttribute('aria-current', 'page')
  const end = el('button', { type: 'button', 'aria-label': `End the sandbox ${s.id}` }, 'End')
  end.addEventListener('click', () =>
    act(async () => {
      await hostAdmin('DELETE', `/sandboxes/${encodeURIComponent(s.id)}`)
      await loadSandboxes()
      say(`Ended the sandbox ${s.id}`)
    }),
  )
  const keys = Object.entries(s.apiKeys as Record<string, string[]>)
    .map(([account, list]) => `${account}: ${list.join(', ')}`)
    .join('; ')
  return el(
    'tr',
    { 'data-sandbox': s.id, className: viewed ? 'viewed' : '' },
    el('td', {}, link, viewed ? ' (viewed)' : ''),
    cell(s.label ?? ''),
    cell(shortTime(s.createdAt)),
    cell(shortTime(s.lastUsedAt)),
    cell(s.expiresAt === null ? 'never' : shortTime(s.expiresAt)),
    cell(s.requests),
    cell(s.changes),
    cell(keys),
    el('td', {}, end),
  )
}

/** The New sandbox button: `POST /__emulator/sandboxes` with no body (the host's clock, fresh keys). */
export function wireSandboxes(): void {
  $('#sandbox-new').addEventListener('click', () =>
    act(async () => {
      const opened = await hostAdmin('POST', '/sandboxes')
      await loadSandboxes()
      say(`Opened the sandbox ${opened.id}`)
    }),
  )
}
