/**
 * The recording stopped on its signal; its checkpoint holds every page recorded and can be resumed (or,
 * when no page was recorded, it is gone).
 */
export class RecordInterruptedError extends Error {
  constructor(
    readonly checkpoint: string,
    readonly pages: number,
  ) {
    super(
      pages === 0
        ? `The recording stopped before its first page; no checkpoint is kept`
        : `The recording stopped; its checkpoint ${checkpoint} holds ${pages} pages`,
    )
    this.name = 'RecordInterruptedError'
  }
}
