import { activationChains, newChain, type ActivationChain, type Chain } from './chains.js'
import type { ChainKind } from './checkpoint.js'

/** One account's chains as a recording walks them, and the activations listed so far. */
export class AccountChains {
  readonly #activations = newChain()
  readonly #participants = newChain()
  /** The activations listed so far, in order, with their type. */
  readonly #listed = new Map<string, string>()
  /** The lists of each activation; `states` the activations list of each state (keyed by the state), which tells the instant the upstream stands at. */
  readonly #keyed: Record<ActivationChain | 'states', Map<string, Chain>> = {
    entries: new Map(),
    completed: new Map(),
    winners: new Map(),
    states: new Map(),
  }

  /** The chain of `kind` (of the activation or state `id` where it has one), begun empty if it was not. */
  chain(kind: ChainKind, id: string | undefined): Chain {
    if (kind === 'activations') return this.#activations
    if (kind === 'participants') return this.#participants
    const map = this.#keyed[kind]
    let chain = map.get(id as string)
    if (!chain) map.set(id as string, (chain = newChain()))
    return chain
  }

  /**
   * The chain a filtered list's items come from (the activations list of a state's, an activation's
   * entries of its completed and winners), once it is done; null for the others, or before then.
   */
  baseOf(kind: ChainKind, id: string | undefined): Chain | null {
    const base =
      kind === 'states'
        ? this.#activations
        : kind === 'completed' || kind === 'winners'
          ? this.#keyed.entries.get(id as string)
          : undefined
    return base?.done ? base : null
  }

  /** Takes the activations of a page of the activations list; returns those it lists first, as [id, type]. */
  list(items: ReadonlyArray<Record<string, unknown>>): Array<[string, string]> {
    const added: Array<[string, string]> = []
    for (const item of items) {
      const [id, type] = [item['id'] as string, String(item['type'])]
      if (!this.#listed.has(id)) added.push([id, type])
      this.#listed.set(id, type)
    }
    return added
  }

  /** The activations listed so far, in order, as [id, type]. */
  listed(): IterableIterator<[string, string]> {
    return this.#listed.entries()
  }

  /** Whether every list of an activation of `type` is recorded whole. */
  isDone(id: string, type: string): boolean {
    return activationChains(type).every((kind) => this.#keyed[kind].get(id)?.done)
  }

  /** Whether the account has the participants list (it did not answer 403). */
  get premium(): boolean {
    return !this.#participants.forbidden
  }
}
