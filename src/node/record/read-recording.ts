import { once } from 'node:events'
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { STATES } from '../../contract/enums.js'
import { idMap, type RecordedAccount, type RecordedPage } from '../../world/recording.js'
import type { CheckpointPage } from './checkpoint.js'

/** What the walk knows of an account that its pages do not say. */
export type AccountOutline = { apiKey: string; premium: boolean; activationIds: readonly string[] }

/** An account's pages as they are read back, before they are put in the recording's order. */
class AccountPages {
  readonly activations: RecordedPage[] = []
  readonly participants: RecordedPage[] = []
  readonly keyed = {
    entries: new Map<string, RecordedPage[]>(),
    completed: new Map<string, RecordedPage[]>(),
    winners: new Map<string, RecordedPage[]>(),
    states: new Map<string, RecordedPage[]>(),
  }

  add(page: CheckpointPage, recorded: RecordedPage): void {
    if (page.chain === 'activations') this.activations.push(recorded)
    else if (page.chain === 'participants') this.participants.push(recorded)
    else {
      const map = this.keyed[page.chain]
      const pages = map.get(page.id as string)
      if (pages) pages.push(recorded)
      else map.set(page.id as string, [recorded])
    }
  }

  recorded(outline: AccountOutline): RecordedAccount {
    const pick = (map: Map<string, RecordedPage[]>) =>
      idMap(outline.activationIds.flatMap((id) => (map.has(id) ? [[id, map.get(id)!] as const] : [])))
    return {
      apiKey: outline.apiKey,
      premium: outline.premium,
      activations: this.activations,
      entries: pick(this.keyed.entries),
      participants: this.participants,
      completed: pick(this.keyed.completed),
      winners: pick(this.keyed.winners),
      states: Object.fromEntries(STATES.map((s) => [s, this.keyed.states.get(s) ?? []])),
    }
  }
}

/** The fields of a page that the spec gives it, kept as sent. */
const PAGE_FIELDS = new Set(['activations', 'entries', 'participants', 'activation', 'next'])

/**
 * A page's body as the recording keeps it: the fields the spec gives a page as sent; any other (what
 * an upstream adds) by name only, with the value null, since a world keeps records, not pages. Keyed
 * as sent: `__proto__` is a name like any other.
 */
function keptBody(body: Record<string, unknown>): Record<string, unknown> {
  if (Object.keys(body).every((key) => PAGE_FIELDS.has(key))) return body
  const kept = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(body)) kept[key] = PAGE_FIELDS.has(key) ? body[key] : null
  return kept
}

/**
 * Reads the accounts of a recording back from its checkpoint `file`, a line at a time (one page parsed
 * at once): each page but the participants' 403 in its list, in the order written. `outlines` are the
 * accounts in order, as the walk left them.
 */
export async function readRecordedAccounts(
  file: string,
  outlines: readonly AccountOutline[],
): Promise<RecordedAccount[]> {
  const accounts = outlines.map(() => new AccountPages())
  const input = createReadStream(file, 'utf8')
  let n = 0
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      n++
      if (n === 1 || line === '') continue
      let page: CheckpointPage
      try {
        page = JSON.parse(line) as CheckpointPage
      } catch {
        throw new Error(`Failed to read the checkpoint ${file}: line ${n} is not JSON`)
      }
      if (page.status === 403) continue
      const body = keptBody(page.body as Record<string, unknown>)
      accounts[page.account]!.add(page, { path: page.path, status: page.status, body })
    }
  } finally {
    // Closed before the recording is given: its file may be removed at once.
    input.destroy()
    if (!input.closed) await once(input, 'close')
  }
  return accounts.map((account, a) => account.recorded(outlines[a]!))
}
