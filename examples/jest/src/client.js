// A tiny client of the Activation Data API: what a project would write, and test against the emulator.

/** The running activations, every page of them. */
export async function runningActivations(baseUrl, apiKey) {
  const activations = []
  let next = null
  do {
    const query = new URLSearchParams({ state: 'running', limit: '100' })
    if (next !== null) query.set('next', next)
    const page = await get(baseUrl, apiKey, `/activations/list?${query}`)
    activations.push(...page.activations)
    next = page.next
  } while (next !== null)
  return activations
}

/** How many winning entries an activation has. */
export async function winnerCount(baseUrl, apiKey, id) {
  let count = 0
  let next = null
  do {
    const query = new URLSearchParams({ is_winner: '1', limit: '1000' })
    if (next !== null) query.set('next', next)
    const page = await get(baseUrl, apiKey, `/activations/${encodeURIComponent(id)}?${query}`)
    count += page.entries.length
    next = page.next
  } while (next !== null)
  return count
}

async function get(baseUrl, apiKey, path) {
  const response = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Api-Key ${apiKey}` } })
  const body = await response.json()
  if (!response.ok) throw new Error(`${response.status}: ${body.error}`)
  return body
}
