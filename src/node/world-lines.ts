import { createReadStream } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'

/** The lists of a world file, in the order a dump writes them. */
const LISTS = ['activations', 'entries', 'participants'] as const

/** Why a file is not in a dump's layout, with the line where that showed. */
export class NotDumpLayout extends Error {}

/**
 * A world file read as a stream, in the layout `dump` and `record` write (see `worldDumpChunks`): the
 * head's fields on the first line, then each list's name on a line, one record a line, and the list's
 * `]`. Each record is parsed on its own, so no string holds the whole file: a world of any size is
 * read (into records: a recorded world is data, kept whole). A file in another layout (one line,
 * pretty-printed, edited across lines) throws `NotDumpLayout`: it is then JSON to parse whole.
 * @example const world = await readWorldLines('recorded.json')
 */
export async function readWorldLines(path: string, chunkBytes = 1 << 20): Promise<Record<string, unknown>> {
  const reader = worldLineReader()
  const decoder = new StringDecoder('utf8')
  let rest = ''
  for await (const chunk of createReadStream(path, { highWaterMark: chunkBytes })) {
    const text = rest + decoder.write(chunk as Buffer)
    let start = 0
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      reader.line(text.slice(start, end))
      start = end + 1
    }
    rest = text.slice(start)
  }
  rest += decoder.end()
  if (rest.length > 0) reader.line(rest)
  return reader.done()
}

/** The reader of a dump's lines, fed one line at a time (without its line break). */
export function worldLineReader(): { line(text: string): void; done(): Record<string, unknown> } {
  let world: Record<string, unknown> | undefined
  let list: unknown[] | undefined
  let next = 0 // the index in LISTS of the list expected next
  let closed = false
  let lineNumber = 0
  let recordEnded = true // whether the last record's line ended with a comma, or none came yet
  const refuse = (why: string): never => {
    throw new NotDumpLayout(`line ${lineNumber.toLocaleString('en')}: ${why}`)
  }
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text)
    } catch (error) {
      // V8's message may quote the line: its position only, never its text.
      const at = /at position (\d+)/.exec((error as Error).message)?.[1]
      return refuse(at === undefined ? 'not JSON' : `not JSON at column ${Number(at) + 1}`)
    }
  }
  return {
    line(raw) {
      lineNumber++
      const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw
      if (closed) return void (text.trim() === '' || refuse('text after the end of the world'))
      if (world === undefined) {
        if (!text.startsWith('{') || !text.endsWith(',')) refuse('the first line is not the head of a dump')
        const head = parse(`${text.slice(0, -1)}}`)
        if (head === null || typeof head !== 'object' || Array.isArray(head)) refuse('the head is not an object')
        world = head as Record<string, unknown>
        return
      }
      if (list === undefined) {
        const name = LISTS[next]
        if (name === undefined) return void (text === '}' ? (closed = true) : refuse('expected the closing }'))
        const opening = `"${name}":[`
        if (text === `${opening}]${next < LISTS.length - 1 ? ',' : ''}`) {
          world[name] = []
          next++
          return
        }
        if (text !== opening) refuse(`expected ${opening}`)
        world[name] = list = []
        recordEnded = true
        return
      }
      const last = next === LISTS.length - 1
      if (text === (last ? ']' : '],')) {
        if (list.length > 0 && recordEnded) refuse('a comma after the last record')
        list = undefined
        next++
        return
      }
      if (!recordEnded) refuse('a record after one that does not end with a comma')
      recordEnded = text.endsWith(',')
      list.push(parse(recordEnded ? text.slice(0, -1) : text))
    },
    done() {
      if (!closed) refuse('the file ends before the world does')
      return world!
    },
  }
}
