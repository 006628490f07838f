// The server the global setup starts and the global teardown closes, kept on globalThis between them.
import type { RunningServer } from 'activation-emulator'

declare global {
  var activationEmulatorServer: RunningServer | undefined
}
