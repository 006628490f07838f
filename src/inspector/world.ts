import { addressOf, parseAddress } from './address.js'
import { $ } from './dom.js'

// The world the page views: the host's, or one sandbox's, as the address named it when the page was
// loaded. Every admin request of the page is asked of that world (api.ts puts `scope` before its
// path). An address of another world loads the page afresh (tabs.ts), so nothing of the last stays.

/** The id of the sandbox viewed; null: the host. */
export const sandbox = parseAddress(location.hash).sandbox

/** Where the viewed world's admin API stands under `/__emulator`: '' (the host) or `/sandboxes/<id>`. */
export const scope = sandbox === null ? '' : `/sandboxes/${encodeURIComponent(sandbox)}`

let gone: string | null = null

/** The 404 message of the sandbox viewed, once it has ended or expired; null while it is open, and for the host. */
export const goneMessage = (): string | null => gone

/** Shows which world is viewed: for a sandbox, its id and label, and the way back to the host. */
export function showWorld(label: string | null): void {
  if (sandbox === null) return
  document.body.classList.add('in-sandbox')
  document.title = `sandbox ${sandbox} · activation-emulator inspector`
  $('#world-name').textContent = label === null ? sandbox : `${sandbox} (${label})`
  $('#world').hidden = false
}

/** Says that the sandbox viewed is gone, with its 404's message, and hides its views: the way back stays. */
export function sandboxGone(message: string): void {
  gone = message
  if ($('#world').hidden) showWorld(null)
  document.body.classList.add('gone')
  $('#world-gone').textContent = message
}

/** The way back to the host: the same view, of the host's world. */
export function wireWorld(): void {
  $('#world-back').addEventListener('click', () => {
    location.hash = addressOf({ sandbox: null, view: parseAddress(location.hash).view })
  })
}
