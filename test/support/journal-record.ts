/** A journal record of a 404 for `path` at `at`, with nothing else set: what a test of the journal's bounds adds. */
export const journalRecord = (at: string, path = '/x') => ({
  at,
  realAt: 0,
  method: 'GET',
  path,
  query: {},
  endpoint: null,
  key: null,
  account: null,
  status: 404,
  durationMs: 0,
  fault: null,
})
