import type { StoredActivation, StoredEntry, StoredParticipant, World } from '../contract/stored-records.js'
import { ChangeLog } from './change-log.js'
import { createInIndex, replaceEntryInIndex, storedVersion } from './index-writes.js'
import { WritableStoreIndex } from './indexes.js'
import type { LoadedWorld, WritableStore } from './store.js'

/**
 * A store that stands over another's world as it was loaded (never its changes) and keeps only its
 * own changes, as a layer (see `WritableStoreIndex`): what a sandbox writes to. It costs nothing until
 * it changes, then what it changed: until its first read or change it holds nothing, not even its
 * index. It has no collections; its writes go into its index, with the checks the collections make.
 * @example const sandboxStore = store.layer()
 */
export class LayerStore implements WritableStore {
  readonly #changes = new ChangeLog()
  readonly #loaded: LoadedWorld
  #index: WritableStoreIndex | undefined
  readonly #watchers: Array<() => void> = []

  constructor(loaded: LoadedWorld) {
    this.#loaded = loaded
    this.#changes.mark()
  }

  get index(): WritableStoreIndex {
    this.#index ??= new WritableStoreIndex(this.#changes, this.#loaded.base)
    return this.#index
  }

  get changes(): ChangeLog {
    return this.#changes
  }

  get loaded(): LoadedWorld {
    return this.#loaded
  }

  async create(kind: 'activation' | 'participant' | 'entry', record: object): Promise<void> {
    await createInIndex(this.index, kind, record)
    if (kind === 'activation') for (const listener of this.#watchers) listener()
  }

  watchActivations(listener: () => void): void {
    this.#watchers.push(listener)
  }

  listed(kind: 'activations' | 'participants'): readonly (StoredActivation | StoredParticipant)[] {
    return [...(kind === 'activations' ? this.index.activations.values() : this.index.participants.values())]
  }

  // The world's participants as loaded, with the layer's changes read over them once it made any.
  unloadedParticipants(accounts: readonly string[]): Iterable<readonly [StoredParticipant, number]> | undefined {
    const pool = this.#loaded.participantsInPoolOrder?.(accounts)
    return pool === undefined || !this.#index?.peopleChanged ? pool : this.#index.participantsOver(pool)
  }

  append(records: World): void {
    this.index.load(records)
  }

  replaceEntry(prev: StoredEntry, next: StoredEntry): void {
    replaceEntryInIndex(this.index, prev, next)
  }

  replaceParticipant(prev: StoredParticipant, next: StoredParticipant): void {
    const index = this.index
    index.replaceParticipant(storedVersion(index.participants, prev), next)
  }
}
