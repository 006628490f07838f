import type { SandboxRoute, SandboxRoutes } from '../../handlers/sandbox-router.js'
import { EmulatorError } from '../contract/emulator-error.js'
import type { Sandbox } from './emulator-type.js'
import type { SandboxInfo } from './sandbox-info.js'

/** What the registry keeps of one sandbox. */
export type HeldSandbox = SandboxRoute & {
  /** Set when it ends: its requests' 404 message. */
  ended?: string | undefined
  readonly id: string
  /** The sandbox itself. */
  readonly sandbox: Sandbox
  readonly keys: readonly string[]
  readonly ttlMs: number
  readonly createdAt: number
  lastUsed: number
  /** Requests it is answering now: it does not expire while one is. */
  answering?: number
  info(): SandboxInfo
  /** Frees what it holds (its handlers' state, its store's layer). */
  close(): void
}

/** How many ended sandboxes are remembered, so that their requests hear they ended rather than that they never were. */
const REMEMBERED = 10_000

/** Letters of ids and keys: lower-case, without those easily misread. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'

/** `length` random letters from a cryptographic source (available in Node and browsers alike). */
export function randomToken(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length))
  let token = ''
  for (const byte of bytes) token += ALPHABET[byte % ALPHABET.length]
  return token
}

/**
 * The sandboxes of one emulator: each found by id and by key, ended on request or after `ttlMs`
 * without use (real time: a sandbox's own clock may stand still), at most `max` at once.
 */
export class SandboxRegistry implements SandboxRoutes {
  readonly max: number
  readonly #now: () => number
  readonly #held = new Map<string, HeldSandbox>()
  readonly #byKey = new Map<string, HeldSandbox>()
  /** Ended sandboxes (why, by id) and their keys (id, by key), oldest first, at most REMEMBERED. */
  readonly #ended = new Map<string, string>()
  readonly #endedKeys = new Map<string, string>()
  #sweeping: ReturnType<typeof setInterval> | undefined
  /** Set by `close`: its emulator was closed, and no sandbox opens any more. */
  #closed = false

  constructor(max: number, now: () => number = Date.now) {
    this.max = max
    this.#now = now
  }

  get active(): boolean {
    return this.#held.size > 0 || this.#ended.size > 0
  }

  get size(): number {
    return this.#held.size
  }

  /** Throws the refusal of a new sandbox when `max` are held, or when the registry was closed. */
  checkRoom(): void {
    if (this.#closed)
      throw new EmulatorError('bad_input', 'Failed to open a sandbox: its emulator was closed (close())')
    this.sweep()
    if (this.#held.size >= this.max) {
      throw new EmulatorError(
        'too_many_sandboxes',
        `Too many sandboxes: ${this.#held.size} open, the most this emulator holds (maxSandboxes, --max-sandboxes); end one with DELETE /__emulator/sandboxes/<id> or close()`,
      )
    }
  }

  add(sandbox: HeldSandbox): void {
    this.checkRoom()
    this.#held.set(sandbox.id, sandbox)
    for (const key of sandbox.keys) this.#byKey.set(key, sandbox)
    if (this.#sweeping === undefined && sandbox.ttlMs > 0) {
      this.#sweeping = setInterval(() => this.sweep(), 1000)
      // A timer of its own must not keep a test process or a server alive.
      ;(this.#sweeping as { unref?: () => void }).unref?.()
    }
  }

  /** Every sandbox held, oldest first. */
  list(): HeldSandbox[] {
    this.sweep()
    return [...this.#held.values()]
  }

  /** Whether a sandbox of that id is held (expired or not). */
  has(id: string): boolean {
    return this.#held.has(id)
  }

  /** The sandbox of that id, marked used; throws `unknown_sandbox` saying whether it ended, expired or never was. */
  get(id: string): HeldSandbox {
    const found = this.byId(id)
    if (typeof found === 'string') throw new EmulatorError('unknown_sandbox', found)
    return found
  }

  byId(id: string): HeldSandbox | string {
    const sandbox = this.#held.get(id)
    if (sandbox && !this.#expire(sandbox)) {
      sandbox.touch()
      return sandbox
    }
    const why = this.#ended.get(id)
    return `Sandbox not found: ${JSON.stringify(id)} ${why ?? 'is not a sandbox of this emulator'}`
  }

  byKey(key: string): HeldSandbox | string | undefined {
    const sandbox = this.#byKey.get(key)
    if (sandbox && !this.#expire(sandbox)) return sandbox
    const id = this.#endedKeys.get(key)
    return id === undefined ? undefined : this.byId(id)
  }

  /** Ends a sandbox (`why` says how, for its later requests' 404); false when it is not held. */
  end(id: string, why = 'was ended'): boolean {
    const sandbox = this.#held.get(id)
    if (!sandbox) return false
    this.#held.delete(id)
    for (const key of sandbox.keys) {
      this.#byKey.delete(key)
      this.#endedKeys.set(key, id)
    }
    this.#ended.set(id, why)
    sandbox.ended = `Sandbox not found: ${JSON.stringify(id)} ${why}`
    for (const map of [this.#ended, this.#endedKeys] as Map<string, string>[]) {
      while (map.size > REMEMBERED) map.delete(map.keys().next().value as string)
    }
    sandbox.close()
    if (this.#held.size === 0) {
      clearInterval(this.#sweeping)
      this.#sweeping = undefined
    }
    return true
  }

  /** Ends every sandbox held. */
  endAll(why = 'was ended'): void {
    for (const id of [...this.#held.keys()]) this.end(id, why)
  }

  /** Ends every sandbox held, and refuses any more: their emulator was closed. */
  close(): void {
    this.#closed = true
    this.endAll('was ended: its emulator was closed')
  }

  /** Marks a sandbox used and answering a request: it does not expire before `done` is called for it. */
  begin(sandbox: HeldSandbox): void {
    sandbox.answering = (sandbox.answering ?? 0) + 1
    sandbox.touch()
  }

  /** A request `begin` marked has been answered: its time to live starts again from now. */
  done(sandbox: HeldSandbox): void {
    sandbox.answering = (sandbox.answering ?? 1) - 1
    sandbox.touch()
  }

  /** Ends the sandboxes whose time to live has passed. */
  sweep(): void {
    for (const sandbox of this.#held.values()) this.#expire(sandbox)
  }

  /** When a sandbox ends unless used first (milliseconds; null: never). */
  expiresAt(sandbox: HeldSandbox): number | null {
    return sandbox.ttlMs > 0 ? sandbox.lastUsed + sandbox.ttlMs : null
  }

  now(): number {
    return this.#now()
  }

  #expire(sandbox: HeldSandbox): boolean {
    const at = this.expiresAt(sandbox)
    if (at === null || this.#now() < at || sandbox.answering) return false
    this.end(sandbox.id, `expired: it was not used for ${Math.round(sandbox.ttlMs / 1000)} s (its ttl)`)
    return true
  }
}
