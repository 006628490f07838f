import type { z } from 'zod'

/**
 * A schema's complaints as lines `path: message`, each path under `prefix` (or `(root)` when the
 * value itself is wrong), for errors that list every problem at once.
 * @example problemLines(result.error.issues, 'entries[3]') // ['entries[3].email: Invalid input...']
 */
export function problemLines(issues: readonly z.core.$ZodIssue[], prefix = ''): string[] {
  return issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.')
    return `${path || '(root)'}: ${issue.message}`
  })
}

/**
 * How a value checked once (options, a scenario) is parsed: without zod's compiled fast path, whose
 * compiling (about 10 ms over `createEmulator`'s options and its scenario) pays only over many values.
 * @example schema.safeParse(options, PARSED_ONCE)
 */
export const PARSED_ONCE = { jitless: true } as const
