// Where each browsing view is in its list: the cursor of the page shown, the next page's, the page's number.

/** The three views that browse the API's lists. */
export type ViewName = 'activations' | 'entries' | 'participants'

/** Each browsing view's request and its cursors: `next` for the following page, `page` its number. */
export const pages: Record<ViewName, { next: string | null; page: number; cursor: string | null }> = {
  activations: { next: null, page: 1, cursor: null },
  entries: { next: null, page: 1, cursor: null },
  participants: { next: null, page: 1, cursor: null },
}

/** Starts a view again from its first page. */
export function firstPage(name: ViewName): void {
  Object.assign(pages[name], { cursor: null, page: 1 })
}
