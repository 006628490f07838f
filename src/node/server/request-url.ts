// The one URL of a request: what the admin guard decides on and what the handlers are given.

/**
 * The URL a request line names, at the emulator's origin: its origin-form (`/activations/list?limit=5`)
 * or the path and query of an absolute-form (`http://host/activations/list`), dot segments resolved as
 * a Fetch URL resolves them; null for anything else (`*`, garbage).
 * @example urlOfTarget('http://127.0.0.1:4010', '/x/../__emulator/clock')?.pathname // '/__emulator/clock'
 */
export function urlOfTarget(origin: string, target: string): URL | null {
  let path = target
  if (!target.startsWith('/')) {
    if (!/^https?:\/\//i.test(target) || !URL.canParse(target)) return null
    const parsed = new URL(target)
    path = `${parsed.pathname}${parsed.search}`
  }
  try {
    // Joined as text, not resolved against the origin: `//x` stays a path rather than naming a host.
    return new URL(`${origin}${path}`)
  } catch {
    return null
  }
}
