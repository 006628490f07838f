/**
 * `text` with every API key in `keys` replaced by `<key>`: an upstream may echo the key it was sent
 * (`Invalid API key: abc123`), and what record and verify print or write must never hold one.
 */
export function redactKeys(text: string, keys: readonly string[]): string {
  let out = text
  for (const key of keys) if (key !== '') out = out.split(key).join('<key>')
  return out
}
