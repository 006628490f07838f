// A record's JSON as UTF-8 bytes, made for every entry a page builds: TextEncoder's `encode` wherever
// the emulator runs, or in Node the encoder its entry gives (`encodeUtf8With`: Node's Buffer, which
// writes the text natively into a slice of its shared pool, several times cheaper than `encode`, which
// allocates a buffer of its own for each text). Both write the same bytes for any text (a lone
// surrogate as U+FFFD, which JSON text never holds anyway).

const encoder = new TextEncoder()
let encode = (text: string): Uint8Array => encoder.encode(text)

/**
 * The UTF-8 bytes of `text` (what `new TextEncoder().encode(text)` gives). The caller must not write into them.
 * @example utf8Bytes('{"id":"a"}') // Uint8Array [123, 34, ...]
 */
export const utf8Bytes = (text: string): Uint8Array => encode(text)

/** Has `utf8Bytes` write with `encoder`, which must give what TextEncoder gives for any text (the Node entry's). */
export function encodeUtf8With(encoder: (text: string) => Uint8Array): void {
  encode = encoder
}
