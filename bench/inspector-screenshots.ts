// Saves a screenshot of each view of the inspector for the README (docs/inspector-<view>.png), at
// 1280x800 and one narrow (390 px), after a little traffic: a rate limit, a fault rule that fires,
// a 403, a 404, two sandboxes. Prints each file it wrote. Run: npm run screenshots
import { mkdirSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createEmulator, serve } from '../src/index.js'
import { launchChromium } from './browser-page.js'

const OUT = fileURLToPath(new URL('../docs/', import.meta.url))
mkdirSync(OUT, { recursive: true })

const emulator = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00Z' })
const server = await serve(emulator, { port: 0 })
const api = (path: string, key = 'demo-key') =>
  fetch(`${server.url}${path}`, { headers: { Authorization: `Api-Key ${key}` } })

emulator.set({ rateLimit: { limit: 30, windowSeconds: 60 } })
emulator.faults.add({ endpoint: 'activation', status: 503, error: 'Service unavailable', times: 1 })
emulator.faults.add({ endpoint: 'list', delay: '250ms', times: 2 })
const { activations } = (await (await api('/activations/list?state=ended&limit=3')).json()) as {
  activations: Array<{ id: string }>
}
await api('/activations/list?state=running&types[]=trivia')
await api(`/activations/${activations[0]!.id}?limit=50`)
await api(`/activations/${activations[0]!.id}?limit=50`)
await api(`/activations/${activations[1]!.id}?is_winner=1`)
await api('/activations/latest?limit=5')
await api('/experience/participants?limit=100')
await api('/activations/list?limit=500')
await api('/activations/list', 'wrong-key')
await api('/activations/nope')

// Two sandboxes, one of them used: the Sandboxes view's list.
const checkout = await emulator.sandbox({ label: 'checkout-flow' })
await emulator.sandbox({ label: 'nightly-import', ttl: 0 })
await api('/activations/list?limit=5', checkout.apiKeys['demo']![0])
await checkout.addActivation({ type: 'giveaway', state: 'running', entries: 3 })

const browser = await launchChromium()
const shots: Array<[string, number, number, string]> = [
  ['accounts', 1280, 800, 'accounts'],
  ['activations', 1280, 800, 'activations'],
  ['entries', 1280, 800, 'entries'],
  ['participants', 1280, 800, 'participants'],
  ['journal', 1280, 800, 'journal'],
  ['faults', 1280, 800, 'faults'],
  ['sandboxes', 1280, 800, 'sandboxes'],
  ['journal-narrow', 390, 844, 'journal'],
]
try {
  for (const [name, width, height, view] of shots) {
    const page = await browser.newPage({ viewport: { width, height } })
    await page.goto(`${server.adminUrl}/#${view}`)
    await page.waitForSelector('#accounts tr', { state: 'attached' })
    if (view === 'entries') {
      await page.getByRole('tab', { name: 'Activations' }).click()
      await page.locator(`#activations tr[data-id="${activations[0]!.id}"] button`).click()
      await page.waitForSelector('#entries tr')
    } else if (view === 'participants') {
      await page.locator('#participants-form button').click()
      await page.waitForSelector('#participants tr')
    } else if (view === 'journal') {
      await page.waitForSelector('#journal tr')
      await page.locator('#journal tr button').nth(2).click()
      await page.waitForSelector('#response:not([hidden])')
    } else if (view !== 'accounts') await page.waitForSelector(`#${view} tr`)
    const file = `${OUT}inspector-${name}.png`
    await page.screenshot({ path: file })
    console.log(`${file.slice(OUT.length - 5)} ${width}x${height} ${(statSync(file).size / 1024).toFixed(0)} kB`)
    await page.close()
  }
} finally {
  await browser.close()
  await server.close()
}
