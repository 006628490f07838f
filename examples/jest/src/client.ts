// A tiny client of the Activation Data API: what a project would write, and test against the emulator.
import type { Activation, ActivationList, ActivationWithEntries, ErrorBody } from 'activation-emulator'

/** The running activations, every page of them. */
export async function runningActivations(baseUrl: string, apiKey: string): Promise<Activation[]> {
  const activations: Activation[] = []
  let next: string | null = null
  do {
    const query = new URLSearchParams({ state: 'running', limit: '100' })
    if (next !== null) query.set('next', next)
    const page: ActivationList = await get(baseUrl, apiKey, `/activations/list?${query}`)
    activations.push(...page.activations)
    next = page.next
  } while (next !== null)
  return activations
}

/** How many winning entries an activation has. */
export async function winnerCount(baseUrl: string, apiKey: string, id: string): Promise<number> {
  let count = 0
  let next: string | null = null
  do {
    const query = new URLSearchParams({ is_winner: '1', limit: '1000' })
    if (next !== null) query.set('next', next)
    const page: ActivationWithEntries = await get(baseUrl, apiKey, `/activations/${encodeURIComponent(id)}?${query}`)
    count += page.entries.length
    next = page.next
  } while (next !== null)
  return count
}

async function get<T>(baseUrl: string, apiKey: string, path: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Api-Key ${apiKey}` } })
  const body = (await response.json()) as T | ErrorBody
  if (!response.ok) throw new Error(`${response.status}: ${(body as ErrorBody).error}`)
  return body as T
}
