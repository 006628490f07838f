/**
 * The heap's share a sandbox's data may take while it is parsed (DATA_HEAP_SHARE, a third of what was
 * free when the parse began), at its bound: exactly the share passes, a byte past it is refused with
 * the 413's message. The heap's figures are the test's own (node:v8 stood in for).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { DataTooLargeError, heapBudget } from '../../src/node/server/data-budget.js'

const heap = vi.hoisted(() => ({ used: 0, limit: 0 }))
vi.mock('node:v8', () => ({
  getHeapStatistics: () => ({ used_heap_size: heap.used, heap_size_limit: heap.limit }),
}))

const GB = 2 ** 30

beforeEach(() => {
  heap.used = 1 * GB
  heap.limit = 4 * GB
})

describe("a sandbox's data's heap budget", () => {
  it('lets the heap grow by a third of what was free, and refuses a byte more', () => {
    const check = heapBudget()
    // 3 GB free when the parse began: 1 GB is its share.
    heap.used = 2 * GB
    expect(check).not.toThrow()
    heap.used = 2 * GB + 1
    expect(check).toThrow(DataTooLargeError)
    expect(check).toThrow(
      "Request body too large: its data's parsed value passed 1024 MB, a third of the memory the server had free (a dumped world takes about 1.3 times its bytes; data of tiny values takes up to 25 times)",
    )
  })

  it('measures from the heap in use when the parse began, not from an empty heap', () => {
    heap.used = 3 * GB
    // 1 GB free: its share is 341 MB and a third.
    const check = heapBudget()
    heap.used = 3 * GB + GB / 3 - 1
    expect(check).not.toThrow()
    heap.used = 3 * GB + GB / 3 + 1
    expect(check).toThrow(/passed 341 MB,/)
    // The heap shrank below where it began (a collection): within the budget.
    heap.used = 2 * GB
    expect(check).not.toThrow()
  })
})
