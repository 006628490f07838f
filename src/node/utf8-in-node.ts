import { Buffer } from 'node:buffer'
import { encodeUtf8With } from '../../handlers/utf8-bytes.js'

/**
 * Has records' bytes written by Node's Buffer (see handlers/utf8-bytes.ts): a plain Uint8Array over
 * the bytes `Buffer.from` writes into its pool, what TextEncoder gives, to whoever compares or
 * subclasses. Called by the package's Node entry and the command line.
 */
export function encodeUtf8InNode(): void {
  encodeUtf8With((text) => {
    const bytes = Buffer.from(text, 'utf8')
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)
  })
}
