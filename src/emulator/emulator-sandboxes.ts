import { EmulatorError } from '../contract/emulator-error.js'
import type { EmulatorSandboxes, Sandbox } from './emulator-type.js'
import type { SandboxInfo } from './sandbox-info.js'
import type { SandboxRegistry } from './sandboxes.js'

/**
 * An emulator's open sandboxes as its users see them (`emulator.sandboxes`), over its registry; a
 * sandbox has none (no registry), and says so.
 */
export class EmulatorSandboxList implements EmulatorSandboxes {
  readonly #registry: SandboxRegistry | undefined

  constructor(registry: SandboxRegistry | undefined) {
    this.#registry = registry
  }

  list(): SandboxInfo[] {
    return this.#registry ? this.#registry.list().map((held) => held.info()) : []
  }

  get(id: string): Sandbox {
    return this.#open(id).sandbox
  }

  /**
   * The sandbox of that id (as `get`), marked answering an admin call: it does not expire before
   * `done` is called (once; later calls do nothing).
   */
  answering(id: string): { sandbox: Sandbox; done(): void } {
    const held = this.#open(id)
    const registry = this.#registry!
    registry.begin(held)
    let done = false
    return {
      sandbox: held.sandbox,
      done: () => {
        if (done) return
        done = true
        registry.done(held)
      },
    }
  }

  info(id: string): SandboxInfo {
    return this.#open(id).info()
  }

  end(id: string): void {
    const registry = this.#registry
    if (!registry?.end(id)) {
      throw new EmulatorError(
        'unknown_sandbox',
        registry ? (registry.byId(id) as string) : `Sandbox not found: ${JSON.stringify(id)}`,
      )
    }
  }

  get max(): number {
    return this.#registry?.max ?? 0
  }

  get size(): number {
    return this.#registry?.size ?? 0
  }

  #open(id: string) {
    if (!this.#registry)
      throw new EmulatorError('unknown_sandbox', `Sandbox not found: ${JSON.stringify(id)}: a sandbox holds none`)
    return this.#registry.get(id)
  }
}
