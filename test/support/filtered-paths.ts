import { FILTER_TYPES } from '../../src/contract/enums.js'

/** Every filter of every endpoint worth asking of a world, for an account whose activations are `activations`. */
export function filteredPaths(activations: Array<{ id: string; type: string; startTime: { iso: string } }>): string[] {
  const paths = [
    '/activations/list',
    '/activations/list?limit=3',
    ...['not_started', 'running', 'ended'].map((s) => `/activations/list?state=${s}&limit=7`),
    ...FILTER_TYPES.map((t) => `/activations/list?types[]=${t}`),
    '/activations/latest',
    '/activations/latest?limit=5',
    ...FILTER_TYPES.map((t) => `/activations/latest?types[]=${t}&limit=10`),
    '/experience/participants',
    '/experience/participants?limit=7',
    '/experience/participants?start_date=2026-05-20&limit=100',
    '/experience/participants?end_date=2026-05-25&limit=100',
    '/experience/participants?last_updated_since=2026-05-01&limit=100',
  ]
  for (const a of activations.slice(0, 40)) {
    const at = `/activations/${encodeURIComponent(a.id)}`
    const day = a.startTime.iso.slice(0, 10)
    paths.push(
      `/activations/list?start_date=${day}`,
      at,
      `${at}?limit=7`,
      `${at}?is_winner=1&limit=50`,
      `${at}?is_completed=1&limit=50`,
      `${at}?is_winner=1&is_completed=1`,
      `${at}?bracket_round=1&limit=50`,
      `${at}?bracket_round=2&bracket_seed=1`,
      `${at}?bracket_seed=3`,
      `${at}?start_date=${day}&limit=20`,
      `${at}?start_date=${day}T12:00:00&limit=20`,
    )
  }
  return paths
}
