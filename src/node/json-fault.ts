import { parseJsonInTurns } from './json-in-turns.js'

/**
 * Where a JSON text that JSON.parse refused (with `error`) goes wrong, in words that quote none of it
 * (a file's bytes may be a secret, or binary): `an unexpected character at line 3, column 17 (byte
 * 120)`. V8 names the position of most faults; of an unexpected token it quotes the text instead,
 * and the text is then walked again to find the byte.
 * @example await jsonFault('{"a" 1}', error) // 'an unexpected character at line 1, column 6 (byte 5)'
 */
export async function jsonFault(text: string, error: unknown): Promise<string> {
  const message = String((error as Error | undefined)?.message)
  const bytes = Buffer.from(text, 'utf8')
  const position = /at position (\d+)/.exec(message)?.[1]
  let at: number
  if (message.includes('end of JSON input')) at = bytes.length
  else if (position !== undefined) at = Buffer.byteLength(text.slice(0, Number(position)))
  else {
    try {
      // Pieces of one byte: every member is walked, so that the fault is named to its value.
      await parseJsonInTurns(bytes, { pieceBytes: 1 })
      return 'not JSON'
    } catch (walked) {
      at = Number(/at byte (\d+)$/.exec((walked as Error).message)?.[1] ?? 0)
    }
  }
  const lineStart = at === 0 ? 0 : bytes.lastIndexOf(0x0a, at - 1) + 1
  let line = 1
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++
  const where = `line ${line}, column ${at - lineStart + 1} (byte ${at})`
  return at >= bytes.length ? `it ends at ${where}, where more was expected` : `an unexpected character at ${where}`
}
