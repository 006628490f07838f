import { apiError, jsonResponse } from '../errors.js'
import type { AdminRoute } from './context.js'

/** Each format the card is written in, and its content type. */
const TYPES: Record<string, string> = {
  json: 'application/json',
  junit: 'application/xml; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
}

/** The query's parameters the card takes, each once. */
const PARAMETERS = new Set(['format', 'concurrency', 'slowMs', 'key'])

/** A whole number given as a parameter, or a 400 naming it. */
function wholeNumber(url: URL, name: string): number | undefined {
  const text = url.searchParams.get(name)
  if (text === null) return undefined
  if (!/^\d{1,9}$/.test(text)) throw apiError(400, `${name} must be a whole number, got ${JSON.stringify(text)}`)
  return Number(text)
}

/**
 * `GET /__emulator/report`: the report card of the client, read from the journal: the rules it kept
 * or broke, each finding with its requests, and the edge cases the run met. `format` is `json` (the
 * default), `junit` (XML for a CI's test report) or `markdown` (a CI job's summary); `concurrency`
 * and `slowMs` set the rules' bounds, `key` reads that key's requests only.
 */
export const readReport: AdminRoute = {
  method: 'get',
  path: '/report',
  what: 'write the report card',
  answer: ({ control }, { request }) => {
    const url = new URL(request.url)
    for (const name of url.searchParams.keys()) {
      if (!PARAMETERS.has(name)) {
        throw apiError(
          400,
          `Unknown parameter ${JSON.stringify(name)}: the report takes format, concurrency, slowMs and key`,
        )
      }
      if (url.searchParams.getAll(name).length > 1) throw apiError(400, `${name} was given more than once`)
    }
    const format = url.searchParams.get('format') ?? 'json'
    const type = TYPES[format]
    if (type === undefined) {
      throw apiError(400, `format must be json, junit or markdown, got ${JSON.stringify(format)}`)
    }
    const concurrency = wholeNumber(url, 'concurrency')
    const slowMs = wholeNumber(url, 'slowMs')
    const key = url.searchParams.get('key') ?? undefined
    const text = control.reportText(format as 'json' | 'junit' | 'markdown', {
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(slowMs === undefined ? {} : { slowMs }),
      ...(key === undefined ? {} : { key }),
    })
    return jsonResponse(200, text, { 'content-type': type, 'cache-control': 'no-store' })
  },
}
