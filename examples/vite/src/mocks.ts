import { createEmulator } from 'activation-emulator'
import { setupWorker } from 'msw/browser'

/**
 * Starts the Activation Data API in this page: the same world, byte for byte, as
 * `npx activation-emulator --scenario default --now 2026-06-01T12:00:00Z` serves.
 */
export async function startEmulator() {
  performance.mark('activation-emulator:build')
  const emulator = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00Z' })
  // The build's duration shows in DevTools' Performance panel (and is what bench/browser-cost.ts reads).
  performance.measure('activation-emulator:build', 'activation-emulator:build')
  const worker = setupWorker(...emulator.handlers)
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true })
  return emulator
}
