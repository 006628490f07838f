import type { RateLimit } from '../contract/rate-limit.js'
import { admin, type Json } from './api.js'
import { $, act, cell, el, say } from './dom.js'

// The accounts' tab: each account's keys, premium and rate limit, changed through `PATCH /__emulator/accounts/<name>`.

type Account = { name: string; apiKeys: string[]; premium: boolean; rateLimit: RateLimit | null }

let accounts: Account[] = []

/** The accounts as last read (the account selects of the browsing forms offer them). */
export const accountList = (): readonly Account[] => accounts

/** Reads the accounts and shows them; the first time, offers them in every account select. */
export async function loadAccounts(): Promise<void> {
  const answer = await admin('GET', '/accounts')
  const first = accounts.length === 0
  accounts = answer.accounts
  if (first) {
    for (const select of document.querySelectorAll<HTMLSelectElement>('.account-select')) {
      select.replaceChildren(...accounts.map((a) => el('option', { value: a.name }, a.name)))
    }
  }
  const rows: HTMLElement[] = answer.accounts.map(accountRow)
  // A row a person is typing a limit in keeps its fields; only what is left in its window is new.
  const table = $('#accounts')
  const typing = document.activeElement instanceof HTMLInputElement && document.activeElement.type === 'number'
  const focused = typing ? [...table.children].find((row) => row.contains(document.activeElement)) : undefined
  const name = focused?.getAttribute('data-account')
  const fresh = rows.find((row) => row.dataset['account'] === name)
  if (focused && fresh) {
    focused.querySelector('td.left')!.replaceWith(fresh.querySelector('td.left')!)
    // The others are replaced where they are: moving the focused row would take its focus away.
    for (const row of rows) {
      if (row !== fresh)
        table.querySelector(`tr[data-account="${CSS.escape(row.dataset['account'] ?? '')}"]`)?.replaceWith(row)
    }
  } else table.replaceChildren(...rows)
}

/** An account's row, with its premium checkbox and rate limit fields. */
function accountRow(a: Json): HTMLElement {
  const premium = el('input', {
    type: 'checkbox',
    checked: a.premium,
    'aria-label': `premium for ${a.name}`,
  }) as HTMLInputElement
  premium.addEventListener('change', () =>
    act(async () => {
      await admin('PATCH', `/accounts/${encodeURIComponent(a.name)}`, { premium: premium.checked })
      await loadAccounts()
      say(`Account ${a.name}: premium ${premium.checked ? 'on' : 'off'}`)
    }),
  )
  const limit = el('input', {
    type: 'number',
    min: '1',
    value: a.rateLimit?.limit ?? '',
    'aria-label': `rate limit of ${a.name}: requests`,
  }) as HTMLInputElement
  const windowSeconds = el('input', {
    type: 'number',
    min: '1',
    value: a.rateLimit?.windowSeconds ?? 60,
    'aria-label': `rate limit of ${a.name}: window in seconds`,
  }) as HTMLInputElement
  const setLimit = (rateLimit: RateLimit | null, what: string) =>
    act(async () => {
      await admin('PATCH', `/accounts/${encodeURIComponent(a.name)}`, { rateLimit })
      await loadAccounts()
      say(`Account ${a.name}: ${what}`)
    })
  const set = el('button', { type: 'button' }, 'Set')
  set.addEventListener('click', () =>
    setLimit(
      { limit: Number(limit.value), windowSeconds: Number(windowSeconds.value) },
      `rate limit ${limit.value} per ${windowSeconds.value} s`,
    ),
  )
  const clear = el('button', { type: 'button' }, 'Clear')
  clear.addEventListener('click', () => setLimit(null, 'no rate limit'))
  const left = a.windows
    ? a.windows
        .map(
          (w: Json) =>
            `${w.key}: ${w.remaining} left${w.resetInSeconds === null ? '' : `, resets in ${w.resetInSeconds} s`}`,
        )
        .join('; ')
    : 'no rate limit'
  return el(
    'tr',
    { 'data-account': a.name },
    cell(a.name),
    cell(a.apiKeys.join(', ')),
    el('td', {}, el('label', {}, premium, ' premium')),
    el('td', {}, limit, ' per ', windowSeconds, ' s ', set, ' ', clear),
    cell(left, 'left'),
  )
}
