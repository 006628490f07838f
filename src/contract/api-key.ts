/** `Api-Key <key>`: the scheme in any case, one or more spaces, the key, and nothing but spaces after it. */
const API_KEY = /^Api-Key +(\S+) *$/i

/**
 * The API key an `Authorization` header carries, or null when there is no header or it is not
 * `Api-Key <key>`.
 * @example apiKeyOf(request.headers.get('authorization')) // 'demo-key' for "Api-Key demo-key"
 */
export function apiKeyOf(header: string | null): string | null {
  return header === null ? null : (API_KEY.exec(header)?.[1] ?? null)
}
