import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/**
 * Builds dist/ once before the suite as `npm run build` does (tsc, then the bundled Node entry), so the
 * command-line and package tests run what a user would.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' })
}
