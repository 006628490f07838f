import type { Emulator } from '../../emulator/emulator.js'
import { writeFileAtomically } from '../atomic-write.js'

/**
 * `--bundle-on-exit FILE`: writes the emulator's reproduction bundle to `file` (whole or not at all)
 * and says where in one line; resolves to the exit code, 1 when it could not be written (said in one line on stderr).
 */
export async function writeExitBundle(emulator: Emulator, file: string): Promise<number> {
  try {
    const text = JSON.stringify(await emulator.bundle())
    await writeFileAtomically(file, [text])
  } catch (error) {
    process.stderr.write(
      `activation-emulator: Failed to write the reproduction bundle to ${file}: ${(error as Error).message}\n`,
    )
    return 1
  }
  process.stdout.write(
    `Wrote a reproduction bundle to ${file}; replay it with npx activation-emulator replay ${file} --serve\n`,
  )
  return 0
}
