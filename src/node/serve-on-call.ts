// serve() as the package exports it: the server's module (node:http, the admin API, the inspector and
// msw's main entry) is loaded when a process first serves, not when it imports the package.
import type { Emulator } from '../emulator/emulator.js'
import type { RunningServer, ServeOptions } from './server/options.js'

/**
 * Serves an emulator over HTTP: the same handlers as in-process, keep-alive, gzip, CORS, and the admin
 * API and inspector on loopback.
 * @example const server = await serve(await createEmulator({ scenario: 'busy' }), { port: 4010 })
 */
export async function serve(emulator: Emulator, options: ServeOptions = {}): Promise<RunningServer> {
  const server = await import('./server/serve.js')
  return server.serve(emulator, options)
}
