import { type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { once } from 'node:events'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { BIN, cleanEnv } from '../support/cli.js'
import { ownPort, spawnOwned } from '../support/processes.js'
import { WAIT } from '../support/timeouts.js'

// A CI script starts the server with `npx activation-emulator ... &` and stops it with `kill $!`.
// npm 11 runs the bin through `sh -c` and forwards SIGTERM to that shell alone, so the server,
// the shell's child, used to keep running and holding the port. These tests run the real npx.

/** A project folder whose node_modules/.bin holds activation-emulator, as an install makes it. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ae-npx-'))
  writeFileSync(join(dir, 'package.json'), '{"name":"ae-npx-project","version":"1.0.0","private":true}')
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true })
  // A shell script that execs node: the process tree is npm's, with no process of ours between.
  writeFileSync(join(dir, 'node_modules', '.bin', 'activation-emulator'), `#!/bin/sh\nexec node '${BIN}' "$@"\n`, {
    mode: 0o755,
  })
  return dir
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}

/** Starts `command` in its own process group and resolves with the port the banner names. */
function startGroup(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawnOwned(command, args, { cwd, env, stdio: 'pipe' })
  let out = ''
  let err = ''
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  const port = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No banner within ${WAIT.banner} ms: ${err}`)), WAIT.banner)
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d
      const m = / listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
      if (m && out.includes('Ctrl-C stops')) {
        clearTimeout(timer)
        ownPort(child, Number(m[1]))
        resolve(Number(m[1]))
      }
    })
  })
  return { child, port }
}

/** Kills whatever is left of a process group (the server, when a test fails). */
function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL')
  } catch {
    // Nothing left.
  }
}

/** Waits until the port is free, or `ms` passed; resolves with whether it is free. */
async function freed(port: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (!(await listening(port))) return true
    await sleep(100)
  }
  return false
}

describe('a server started by npx', () => {
  it('stops, freeing its port, when npx is stopped with SIGTERM (kill $!)', async () => {
    const env = cleanEnv({ npm_config_update_notifier: 'false', npm_config_fund: 'false' })
    const { child, port } = startGroup(
      'npx',
      ['--no', '--', 'activation-emulator', '-s', 'empty', '--port', '0', '--quiet'],
      project(),
      env,
    )
    try {
      const at = await port
      expect(await listening(at)).toBe(true)
      child.kill('SIGTERM')
      expect(await freed(at, WAIT.portFree)).toBe(true)
    } finally {
      killGroup(child)
    }
  })

  it('keeps serving, started without npm, when the shell that started it exits', async () => {
    // `activation-emulator ... &` from a script or `nohup`: the shell goes, the server is meant to stay.
    const env = cleanEnv({})
    delete env['npm_lifecycle_event']
    const dir = project()
    const bin = join(dir, 'node_modules', '.bin', 'activation-emulator')
    // The shell starts the server in the background, then ends once told (after the banner).
    const { child, port } = startGroup('sh', ['-c', `'${bin}' -s empty --port 0 --quiet & read line`], dir, env)
    try {
      const at = await port
      child.stdin!.end('go\n')
      await once(child, 'exit')
      expect(child.exitCode).toBe(0)
      // Longer than the watch's second: the server's parent is gone, and it still answers.
      await sleep(2500)
      expect(await listening(at)).toBe(true)
    } finally {
      killGroup(child)
    }
  })
})
