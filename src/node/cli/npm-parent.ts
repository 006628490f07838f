/** The process that started this one, read when the command line starts (before a world is built). */
const startedBy = process.ppid

/** Whether a process is still there (one that is not ours to signal still is). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Calls `stop` once the process that started this one is gone (already, or later), when npx (or
 * `npm exec`) started it, checking once a second without keeping the process alive.
 *
 * npm runs a package's bin through `sh -c`, and on SIGTERM (a CI script's `kill $!`) forwards the
 * signal to that shell alone: the shell dies, and the server, its child, would go on holding the port.
 * Under npx the shell exists only to run the server, so its going away means npx is being stopped.
 * Started any other way (a shell's `&` or `nohup`, an npm script, a test runner), the parent may end
 * while the server is meant to keep serving, so nothing is watched.
 * @example stopWhenNpxIsGone(stop)
 */
export function stopWhenNpxIsGone(stop: () => void, env: NodeJS.ProcessEnv = process.env): void {
  // npm's run-script sets it for the command npx runs, whose children inherit it.
  if (env['npm_lifecycle_event'] !== 'npx') return
  const timer = setInterval(() => {
    // An orphan is adopted by another process (init, or a subreaper); on Windows it keeps the dead pid.
    if (process.ppid === startedBy && alive(startedBy)) return
    clearInterval(timer)
    stop()
  }, 1000)
  timer.unref()
}
