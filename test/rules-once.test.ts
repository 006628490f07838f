import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Each rule of the API written once (STYLE.md, "Each error and each rule written once"): its bounds,
// its states and types, the grammar of a date parameter and the `Api-Key` header live in src/contract/,
// and every other source file imports them. Each rule below is a pattern that only a definition of
// the rule matches, and the one file that may hold it.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const FOLDERS = ['src', 'handlers', 'factories', 'scenarios', 'bench']

type Rule = {
  what: string
  /** What a definition of the rule looks like in source text. */
  pattern: RegExp
  home: string
}

const RULES: readonly Rule[] = [
  {
    what: 'the largest bracket_round and bracket_seed',
    pattern: /\b(?:const|let|var)\s+MAX_FILTER_INTEGER\b/,
    home: 'src/contract/responses.ts',
  },
  {
    what: 'the largest limit of each list',
    pattern: /\b(?:const|let|var)\s+LIMIT_MAX\b/,
    home: 'src/contract/responses.ts',
  },
  {
    what: 'the three states',
    pattern: /\[\s*'not_started',\s*'running',\s*'ended'\s*\]/,
    home: 'src/contract/enums.ts',
  },
  {
    what: 'the types the spec lists',
    pattern: /'giveaway',\s*'sweepstakes',\s*'contest'/,
    home: 'src/contract/enums.ts',
  },
  { what: 'the filter-only types', pattern: /'survey',\s*'quiz'/, home: 'src/contract/enums.ts' },
  { what: 'the rules of each type', pattern: /\b(?:const|let|var)\s+TYPE_RULES\b/, home: 'src/contract/type-rules.ts' },
  {
    what: 'the Authorization header of an API key',
    pattern: /Api-Key(?: |\\s)[+*]/i,
    home: 'src/contract/api-key.ts',
  },
  {
    what: 'a date parameter: its forms and its calendar',
    pattern:
      /\b(?:const|let|var)\s+(?:DAY_FORM|DAY_TIME_FORM|CALENDAR_DATE)\b|z\.iso\.date\(|z\.regexes\.date|setUTCFullYear/,
    home: 'src/contract/date-parameter.ts',
  },
  {
    what: 'where four-digit years end, past which an instant is written to compare with the stored ones',
    pattern: /\b(?:const|let|var)\s+YEAR_10000_MS\b|Date\.UTC\(10000\b|253_?402_?300_?800_?000/,
    home: 'src/contract/date-object.ts',
  },
  // The error messages every path shares: made by one function each.
  {
    what: 'the 404 of a path no endpoint answers',
    pattern: /`Not found: no \$\{|no endpoint at \$\{/,
    home: 'handlers/errors.ts',
  },
  {
    what: 'the 405 of a method a path does not take',
    pattern: /`Method \$\{[^}]+\} is not allowed/,
    home: 'handlers/errors.ts',
  },
  { what: 'the 400 of a path that does not decode', pattern: /`Malformed path: \$\{/, home: 'handlers/errors.ts' },
]

/** Every TypeScript source under the folders, as repository paths. */
function sources(): string[] {
  return FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => `${folder}/${f.replaceAll('\\', '/')}`),
  )
}

describe('each rule of the API is defined once, in src/contract/', () => {
  const texts = new Map(sources().map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]))

  it.each(RULES)('$what: defined in $home only', ({ pattern, home }) => {
    expect(pattern.test(texts.get(home) ?? ''), `${home} defines it`).toBe(true)
    const elsewhere = [...texts].filter(([path, text]) => path !== home && pattern.test(text)).map(([path]) => path)
    expect(elsewhere).toEqual([])
  })

  it('the handlers bound every limit by the contract: each query.limit(...) reads LIMIT_MAX', () => {
    const calls = [...texts]
      .filter(([path]) => path.startsWith('handlers/'))
      .flatMap(([path, text]) => [...text.matchAll(/\bquery\.limit\(([^,)]*)/g)].map((m) => `${path}: ${m[1]}`))
    expect(calls.length).toBeGreaterThan(0)
    expect(calls.filter((call) => !/: LIMIT_MAX\.\w+$/.test(call))).toEqual([])
  })

  it("a scenario's default limits are bounded by LIMIT_MAX", () => {
    const bound = /\b(?:activations|entries|participants): z\.number\(\)\.int\(\)\.min\(1\)\.max\(([^)]*)\)/g
    const bounds = [...texts].flatMap(([path, text]) => [...text.matchAll(bound)].map((m) => `${path}: ${m[1]}`))
    expect(bounds.length).toBeGreaterThan(0)
    expect(bounds.filter((b) => !/: LIMIT_MAX\.\w+$/.test(b))).toEqual([])
  })
})
