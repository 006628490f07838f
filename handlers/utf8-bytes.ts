// A record's JSON as UTF-8 bytes, made for every entry a page builds. Where Node's Buffer is there, its
// `from` writes the text natively into a slice of its shared pool (a few kilobytes taken in turn, as
// every small Buffer a Node program makes is), several times cheaper than TextEncoder's `encode`, which
// allocates a buffer of its own for each text; a browser, which has no Buffer, gets TextEncoder's. Both
// write the same bytes for any text (a lone surrogate as U+FFFD, which JSON text never holds anyway).

type BufferFrom = (text: string, encoding: 'utf8') => Uint8Array
const nodeBuffer = (globalThis as { Buffer?: { from: BufferFrom } }).Buffer
const encoder = new TextEncoder()

/**
 * The UTF-8 bytes of `text` (what `new TextEncoder().encode(text)` gives). The caller must not write into them.
 * @example utf8Bytes('{"id":"a"}') // Uint8Array [123, 34, ...]
 */
export const utf8Bytes: (text: string) => Uint8Array = nodeBuffer
  ? (text) => {
      // A plain Uint8Array over the Buffer's bytes: what TextEncoder gives, to whoever compares or subclasses.
      const bytes = nodeBuffer.from(text, 'utf8')
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)
    }
  : (text) => encoder.encode(text)
