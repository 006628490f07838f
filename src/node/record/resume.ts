import {
  CHECKPOINT_FORMAT,
  openCheckpoint,
  readCheckpoint,
  type CheckpointHeader,
  type CheckpointPage,
  type CheckpointWriter,
} from './checkpoint.js'

/** The checkpoint a run appends to, when the recording began, and whether it goes on with pages already recorded. */
export type RunCheckpoint = { writer: CheckpointWriter; startedAt: string; resumed: boolean }

/**
 * Opens the checkpoint `file` of a recording of `what` for a run. With `resume` and a checkpoint there,
 * each page it holds is given to `replay` in the order written (none is asked again) and the run appends
 * to it; otherwise a new checkpoint begun at `startedAt` (replacing the file only with `resume`: without
 * it an existing file is refused).
 */
export function openRunCheckpoint(
  file: string,
  what: Omit<CheckpointHeader, 'format' | 'startedAt'>,
  startedAt: string,
  resume: boolean,
  replay: (page: CheckpointPage) => void,
): RunCheckpoint {
  const loaded = resume ? readCheckpoint(file, what) : null
  if (!loaded) {
    const header: CheckpointHeader = {
      format: CHECKPOINT_FORMAT,
      from: what.from,
      keys: what.keys,
      limits: what.limits,
      startedAt,
    }
    return { writer: openCheckpoint(file, header, resume), startedAt, resumed: false }
  }
  for (const page of loaded.pages) replay(page)
  return { writer: openCheckpoint(file, null), startedAt: loaded.startedAt, resumed: true }
}
