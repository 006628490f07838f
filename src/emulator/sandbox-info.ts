/** A sandbox as `GET /__emulator/sandboxes` lists it. */
export type SandboxInfo = {
  id: string
  label: string | null
  /** Its accounts' API keys, minted for it, by account name. */
  apiKeys: Record<string, string[]>
  /** Its API under a path of its own, for a client whose key is fixed. */
  baseUrl: string
  /** Its admin API: the host's control endpoints, each for this sandbox alone. */
  adminUrl: string
  createdAt: string
  lastUsedAt: string
  /** When it ends unless used before (ISO; null: it never expires). */
  expiresAt: string | null
  /** API requests it has answered. */
  requests: number
  /** Writes its store holds over the shared world (records and lists it changed). */
  changes: number
}
