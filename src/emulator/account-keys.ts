import type { AccountSettings } from '../../handlers/index.js'
import type { Scenario } from '../world/scenario.js'
import { EmulatorError } from '../contract/emulator-error.js'

/** Each account's current settings, and the account of each API key. */
export class AccountKeys {
  readonly #scenario: Scenario
  #accounts: AccountSettings[] = []
  readonly #byKey = new Map<string, AccountSettings>()

  constructor(scenario: Scenario) {
    this.#scenario = scenario
    this.reset()
  }

  /** Every account, with its settings as they are now. */
  get accounts(): readonly AccountSettings[] {
    return this.#accounts
  }

  /** The account an API key belongs to. */
  accountOfKey(key: string): AccountSettings | undefined {
    return this.#byKey.get(key)
  }

  /** The account of that name (the scenario's first when none is given); throws naming the accounts when there is none. */
  named(name: string | undefined): AccountSettings {
    const account = name === undefined ? this.#accounts[0] : this.#accounts.find((a) => a.name === name)
    if (!account) {
      throw new EmulatorError(
        'unknown_account',
        `Unknown account ${JSON.stringify(name)}: the accounts are ${this.#accounts.map((a) => a.name).join(', ')}`,
      )
    }
    return account
  }

  /** Back to the scenario's settings. */
  reset(): void {
    this.#accounts = this.#scenario.accounts.map((a) => ({
      name: a.name,
      apiKeys: a.apiKeys,
      premium: a.premium,
      rateLimit: a.rateLimit,
    }))
    this.#byKey.clear()
    for (const account of this.#accounts) for (const key of account.apiKeys) this.#byKey.set(key, account)
  }
}
