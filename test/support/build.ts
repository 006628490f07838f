import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** Builds dist/ once before the suite, so the command-line tests run what a user would: the built command. */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  })
}
