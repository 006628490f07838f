// The page's DOM helpers: find an element, make one, say something in the status line.

/** The page's element that `selector` names (the page's markup always has it). */
export const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector(selector) as T

/** An element with attributes (or properties: `textContent`, `checked`...) and children. */
export function el(tag: string, props: Record<string, unknown> = {}, ...children: Array<Node | string>): HTMLElement {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(props)) {
    if (name in node && !name.startsWith('data') && !name.startsWith('aria'))
      (node as unknown as Record<string, unknown>)[name] = value
    else node.setAttribute(name, String(value))
  }
  node.append(...children)
  return node
}

/** A table cell of a value's text (nothing for null), with a class when given. */
export const cell = (text: unknown, className = '') => el('td', className ? { className } : {}, String(text ?? ''))

/** Says what happened, or what went wrong, in the page's status line. */
export function say(text: string, error = false): void {
  const line = $('#message')
  line.textContent = text
  line.classList.toggle('error', error)
}

/** Runs an action of the page, and says its error if it fails. */
export function act(action: () => Promise<unknown>): void {
  action().catch((error: Error) => say(error.message, true))
}
