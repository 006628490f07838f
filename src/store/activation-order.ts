import { compareDates } from '../contract/date-object.js'
import type { StoredActivation } from '../contract/stored-records.js'
import { copyList, LayeredMap, ownList } from './layered-map.js'
import { compareStrings, insertSorted, lowerBound, removeSorted } from './sorted.js'

/** The activations list's order: newest startTime first, then id. */
export const byStartDesc = (a: StoredActivation, b: StoredActivation) =>
  compareDates(b.startTime, a.startTime) || compareStrings(a.id, b.id)

/**
 * Each account's activations in list order (newest startTime first, then id), and the slugs taken:
 * the part of the store's index that the activations list pages through. Whole, or a layer over a
 * base that it never writes (see `LayeredMap`); the index records the undo steps of its writes.
 */
export class ActivationOrder {
  readonly #byAccount: LayeredMap<string, StoredActivation[]>
  readonly #slugs: LayeredMap<string, true>

  constructor(base?: ActivationOrder) {
    this.#byAccount = new LayeredMap(base && base.#byAccount)
    this.#slugs = new LayeredMap(base && base.#slugs)
  }

  /** Forgets a layer's changes (see `WritableStoreIndex.clearLayer`). */
  clear(): void {
    this.#byAccount.clear()
    this.#slugs.clear()
  }

  /** How many lists and slugs this layer holds over its base. */
  get changed(): number {
    return this.#byAccount.changed + this.#slugs.changed
  }

  /** The activations of an account, newest startTime first, then by id. */
  activationsOf(account: string): readonly StoredActivation[] {
    return this.#byAccount.get(account) ?? []
  }

  /** Where an activation stands (or would stand) in its account's list: the first position not before it. */
  activationPosition(activation: StoredActivation): number {
    return lowerBound(this.activationsOf(activation.account), activation, byStartDesc)
  }

  slugTaken(slug: string): boolean {
    return this.#slugs.has(slug)
  }

  /** Puts an activation at its place in its account's list. */
  add(activation: StoredActivation): void {
    this.#slugs.set(activation.slug, true)
    insertSorted(ownList(this.#byAccount, activation.account), activation, byStartDesc)
  }

  /** For loading a world: puts an activation last in its account's list, which the loader sorts once at the end. */
  append(activation: StoredActivation): StoredActivation[] {
    this.#slugs.set(activation.slug, true)
    const list = ownList(this.#byAccount, activation.account)
    list.push(activation)
    return list
  }

  remove(activation: StoredActivation): void {
    this.#slugs.delete(activation.slug)
    removeSorted(this.#byAccount.writable(activation.account, copyList) ?? [], activation, byStartDesc)
  }
}
