import {
  storedActivationSchema,
  type StoredActivation,
  type StoredEntry,
  type StoredParticipant,
  type World,
} from '../contract/stored-records.js'
import { ChangeLog } from './change-log.js'
import { plannedBase } from './planned-base.js'
import type { PlannedWorld } from './planned-shapes.js'
import { createInIndex, replaceEntryInIndex, storedVersion } from './index-writes.js'
import { WritableStoreIndex } from './indexes.js'
import { indexedActivations, indexedCollections } from './indexed-collections.js'
import { ListenedCollection, recordSymbols, type RecordSymbols } from './msw-data-adapter.js'
import type { CollectionStore, LoadedWorld, WorldCollections, WritableStore } from './store.js'

/**
 * A world's store: its changes are a layer over the world as loaded, and cost what they change. The
 * world is a planned one, each entry and participant built when read (a `PlannedWorld`), or one
 * given whole (a dump, a sandbox's `data`), indexed at once; either is the index's base, which nothing
 * writes. The activations are a collection from the start; the entries and participants become
 * collections only when `materialize()` is called. Until then the writes go into the index alone,
 * with the checks the collections make.
 * @example const store = await WorldStore.load(planWorld(scenario, now))
 */
export class WorldStore implements CollectionStore, WritableStore {
  readonly #changes = new ChangeLog()
  readonly #index: WritableStoreIndex
  readonly #loaded: LoadedWorld
  readonly #activations: ListenedCollection<typeof storedActivationSchema>
  readonly #symbols: RecordSymbols
  /** Pins a planned world's entries, so that a collection holds each as one object (a whole world's already are). */
  readonly #pin: () => void
  #collections: ReturnType<typeof indexedCollections> | undefined

  /**
   * Loads a world into a new store. A change the store refuses throws and stores nothing. A whole
   * world is indexed at once, or by `inSteps` where given (its steps yield between them: in turns).
   */
  static async load(
    world: World | PlannedWorld,
    inSteps?: (steps: Generator<undefined, void>) => Promise<void>,
  ): Promise<WorldStore> {
    const symbols = await recordSymbols()
    if ('entryRuns' in world || !inSteps) return new WorldStore(world, symbols)
    const whole = new WritableStoreIndex()
    await inSteps(whole.loadInSteps(world))
    return new WorldStore(world, symbols, whole)
  }

  private constructor(world: World | PlannedWorld, symbols: RecordSymbols, loaded?: WritableStoreIndex) {
    this.#symbols = symbols
    if ('entryRuns' in world) {
      const base = plannedBase(world)
      this.#loaded = { base, participantsInPoolOrder: (accounts) => base.participantsInPoolOrder(accounts) }
      this.#pin = () => base.pin()
    } else {
      const whole = loaded ?? new WritableStoreIndex()
      if (!loaded) whole.load(world)
      this.#loaded = { base: whole.asBase() }
      this.#pin = () => {}
    }
    const changes = this.#changes
    const index = new WritableStoreIndex(changes, this.#loaded.base)
    this.#index = index
    this.#activations = indexedActivations(index, symbols, changes)
    this.#activations.load('activation', world.activations)
    changes.mark()
  }

  get index(): WritableStoreIndex {
    return this.#index
  }

  get changes(): ChangeLog {
    return this.#changes
  }

  get loaded(): LoadedWorld {
    return this.#loaded
  }

  get activations(): ListenedCollection<typeof storedActivationSchema> {
    return this.#activations
  }

  get materialized(): boolean {
    return this.#collections !== undefined
  }

  materialize(): WorldCollections {
    return this.#collected()
  }

  // The world's records as loaded (what a revert puts back), then the lists as the changes made them.
  #collected(): ReturnType<typeof indexedCollections> {
    if (this.#collections) return this.#collections
    const { participants, entries } = indexedCollections(this.#index, this.#symbols, this.#changes)
    const base = this.#loaded.base
    this.#pin()
    participants.loadAfterChanges(
      'participant',
      [...base.participants.values()],
      [...this.#index.participants.values()],
    )
    entries.loadAfterChanges('entry', [...base.entries.values()], [...this.#index.entries.values()])
    this.#collections = { participants, entries }
    return this.#collections
  }

  async create(kind: 'activation' | 'participant' | 'entry', record: object): Promise<void> {
    if (kind === 'activation') return void (await this.#activations.create(record as StoredActivation))
    const collections = this.#collections
    if (collections)
      return void (await collections[kind === 'entry' ? 'entries' : 'participants'].create(record as never))
    // An entry reads none of its activation's lists: it waits in the index until they are read (see `ServingOrder`).
    await createInIndex(this.#index, kind, record)
  }

  watchActivations(listener: () => void): void {
    for (const event of ['create', 'update', 'delete'] as const) this.#activations.hooks.on(event, listener)
  }

  listed(kind: 'activations' | 'participants'): readonly (StoredActivation | StoredParticipant)[] {
    if (kind === 'activations') return this.#activations.all()
    return this.#collections ? this.#collections.participants.all() : [...this.#index.participants.values()]
  }

  // The world's participants as loaded, with the changes read over them, until collections hold them.
  unloadedParticipants(accounts: readonly string[]): Iterable<readonly [StoredParticipant, number]> | undefined {
    const pool = this.#loaded.participantsInPoolOrder?.(accounts)
    if (pool === undefined || !this.#index.peopleChanged) return pool
    return this.#collections ? undefined : this.#index.participantsOver(pool)
  }

  append(records: World): void {
    this.#index.load(records)
    this.#activations.load('activation', records.activations)
    this.#collections?.participants.load('participant', records.participants)
    this.#collections?.entries.load('entry', records.entries)
  }

  replaceEntry(prev: StoredEntry, next: StoredEntry): void {
    if (this.#collections) return this.#collections.entries.swap(storedVersion(this.#index.entries, prev), next)
    replaceEntryInIndex(this.#index, prev, next)
  }

  replaceParticipant(prev: StoredParticipant, next: StoredParticipant): void {
    const index = this.#index
    if (this.#collections) return this.#collections.participants.swap(storedVersion(index.participants, prev), next)
    index.replaceParticipant(storedVersion(index.participants, prev), next)
  }
}
