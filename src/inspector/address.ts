// The page's address names the view shown and the world it is of: `#activations` for the host's,
// `#sandbox=<id>/activations` for a sandbox's, so that Back, a reload and a link keep both.

/** What an address names: a sandbox's id (null: the host) and a view's name ('' when it names none). */
export type Address = { sandbox: string | null; view: string }

/** What a hash (`location.hash`) names. */
export function parseAddress(hash: string): Address {
  const match = /^#?sandbox=([^/]*)(?:\/(.*))?$/.exec(hash)
  if (!match) return { sandbox: null, view: hash.replace(/^#/, '') }
  let id = match[1]!
  try {
    id = decodeURIComponent(id)
  } catch {
    // Not percent-encoding: the id as typed (no sandbox has it, and the page says so).
  }
  return { sandbox: id === '' ? null : id, view: match[2] ?? '' }
}

/** The hash of a view of a world. */
export const addressOf = ({ sandbox, view }: Address): string =>
  sandbox === null ? `#${view}` : `#sandbox=${encodeURIComponent(sandbox)}/${view}`
