// How the journal says whether a body answered and the same request's body asked now are the same: the
// top-level fields that differ, and of a list of records (each with an `id`), the ids, a few of each.

/** The most ids named of each kind (added, gone, changed) before `and N more`. */
const IDS_NAMED = 3

const isRecordList = (value: unknown): value is Array<{ id: unknown }> =>
  Array.isArray(value) && value.every((v) => typeof v === 'object' && v !== null && 'id' in v)

/** `a, b, c and 4 more`. */
function some(ids: string[]): string {
  const named = ids.slice(0, IDS_NAMED).join(', ')
  return ids.length > IDS_NAMED ? `${named} and ${ids.length - IDS_NAMED} more` : named
}

/** What differs between two lists of records, by id: `1 added (e_9); 2 changed (e_1, e_2)`. */
function listDifference(before: Array<{ id: unknown }>, after: Array<{ id: unknown }>): string {
  const was = new Map(before.map((r) => [String(r.id), JSON.stringify(r)]))
  const is = new Map(after.map((r) => [String(r.id), JSON.stringify(r)]))
  const added = [...is.keys()].filter((id) => !was.has(id))
  const gone = [...was.keys()].filter((id) => !is.has(id))
  const changed = [...is.keys()].filter((id) => was.has(id) && was.get(id) !== is.get(id))
  const parts = [
    added.length ? `${added.length} added (${some(added)})` : '',
    gone.length ? `${gone.length} gone (${some(gone)})` : '',
    changed.length ? `${changed.length} changed (${some(changed)})` : '',
  ].filter(Boolean)
  return parts.length ? parts.join('; ') : 'the same ids, in another order'
}

/**
 * One line saying whether `answered` and `now` (two JSON bodies) are the same, and if not, which
 * top-level fields differ, with the ids that differ in a list of records.
 * @example bodyDifference({ next: 'a' }, { next: 'b' }) // 'The body asked now differs from the one answered in next.'
 */
export function bodyDifference(answered: unknown, now: unknown): string {
  if (JSON.stringify(answered) === JSON.stringify(now)) return 'The body asked now is the same as the one answered.'
  const objects = [answered, now].every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))
  if (!objects) return 'The body asked now differs from the one answered.'
  const was = answered as Record<string, unknown>
  const is = now as Record<string, unknown>
  const fields = [...new Set([...Object.keys(was), ...Object.keys(is)])]
  const differ = fields
    .filter((name) => JSON.stringify(was[name]) !== JSON.stringify(is[name]))
    .map((name) => {
      const [a, b] = [was[name], is[name]]
      return isRecordList(a) && isRecordList(b) ? `${name} (${listDifference(a, b)})` : name
    })
  return `The body asked now differs from the one answered in ${differ.join(', ')}.`
}
