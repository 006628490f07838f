// One server for the whole run, with the world every test's sandbox copies; the workers start after
// this and inherit the variable useSandbox reads.
// (The global's type: server-global.d.ts.)
import { createEmulator, serve } from 'activation-emulator'

export default async function globalSetup(): Promise<void> {
  const emulator = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00Z' })
  const server = await serve(emulator, { port: 0 })
  process.env['ACTIVATION_EMULATOR_URL'] = server.url
  globalThis.activationEmulatorServer = server
}
