import { getHeapStatistics } from 'node:v8'

/**
 * Of the heap still free when a sandbox's data begins to be parsed, the share its value may take: the
 * sandbox made from it takes about as much again, and the last share keeps the server answering. A
 * dumped world's records take about 1.3 times their bytes (so the 512 MB a body may carry fit Node's
 * default heap); a text of tiny values (`[{},{},...]`) up to 25 times.
 */
const DATA_HEAP_SHARE = 1 / 3

/** Why a sandbox's data stopped being parsed: its value would take more of the heap than its share. */
export class DataTooLargeError extends Error {}

/**
 * The check of one data's parse (see parseJsonInTurns): it throws a DataTooLargeError once the heap in
 * use has grown past DATA_HEAP_SHARE of what was free when the parse began.
 * @example await parseJsonInTurns(bytes, { check: heapBudget() })
 */
export function heapBudget(): () => void {
  const { used_heap_size: used, heap_size_limit: limit } = getHeapStatistics()
  const share = (limit - used) * DATA_HEAP_SHARE
  return () => {
    if (getHeapStatistics().used_heap_size - used <= share) return
    throw new DataTooLargeError(
      `Request body too large: its data's parsed value passed ${Math.round(share / 2 ** 20)} MB, a third of the memory the server had free (a dumped world takes about 1.3 times its bytes; data of tiny values takes up to 25 times)`,
    )
  }
}
