import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

// What the suite started, kept on disk: Vitest runs test files in worker processes, and the run's
// global set-up (test/support/global-processes.ts) must see what every worker started. One file per
// process group, in a folder of the run named by EMULATOR_TEST_RUN, which every process the suite
// starts also inherits: on Linux the check at the end finds anything carrying it, even a process that
// left its group.

/** The variable that names the run's folder; the marker that every process of the run carries. */
export const RUN_VARIABLE = 'EMULATOR_TEST_RUN'

/** A process group a test started: its leader, what it is, who started it, the ports it was seen on. */
export type Owned = { pid: number; command: string; file: string; ports: number[] }

/** The run's folder, or undefined outside a run of the suite (a helper imported by a script). */
export function runDir(): string | undefined {
  return process.env[RUN_VARIABLE] || undefined
}

export function record(owned: Owned): void {
  const dir = runDir()
  if (!dir) return
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${owned.pid}.json`), JSON.stringify(owned))
}

export function recorded(dir: string): Owned[] {
  let names: string[]
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'))
  } catch {
    return []
  }
  return names.map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Owned)
}

export function removeRun(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}

/**
 * Whether any process of the group is alive. On Linux a zombie does not count: a server killed after
 * its parent shell exited is nobody's child here to reap (the container's init does not), and stays one.
 */
export function groupAlive(pgid: number): boolean {
  const members = linuxGroupMembers(pgid)
  if (members !== undefined) return members.length > 0
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The live (not zombie) processes of a group, from /proc; undefined without /proc. */
function linuxGroupMembers(pgid: number): number[] | undefined {
  let pids: string[]
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return undefined
  }
  return pids.map(Number).filter((pid) => {
    const stat = readStat(pid)
    return stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z'
  })
}

/** A process's state, parent and group, from /proc/<pid>/stat (its name may hold spaces and parentheses). */
function readStat(pid: number): { state: string; ppid: number; pgrp: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1')
    const [state, ppid, pgrp] = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { state: state!, ppid: Number(ppid), pgrp: Number(pgrp) }
  } catch {
    return undefined
  }
}

/** Sends `signal` to the whole group; nothing happens when it is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // The group is gone.
  }
}

/** A live process of the run, as the check at the end names it. */
export type Leftover = { pid: number; command: string; ports: number[] }

/**
 * On Linux, every live process whose environment carries this run's marker, but `except` (the runner
 * and its workers), with the TCP ports it listens on. Elsewhere, undefined: the groups are all we know.
 */
export function processesOfRun(dir: string, except: (pid: number, ppid: number) => boolean): Leftover[] | undefined {
  let pids: number[]
  try {
    pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
  } catch {
    return undefined
  }
  const marker = `${RUN_VARIABLE}=${dir}`
  const listening = listeningSockets()
  const found: Leftover[] = []
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker)) continue
      const stat = readStat(pid)
      if (!stat || stat.state === 'Z' || except(pid, stat.ppid)) continue
      const command = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim().slice(0, 160)
      found.push({ pid, command, ports: socketsOf(pid).flatMap((inode) => listening.get(inode) ?? []) })
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found
}

/** Listening TCP sockets (IPv4 and IPv6) by inode, with their ports. */
function listeningSockets(): Map<string, number[]> {
  const byInode = new Map<string, number[]>()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string
    try {
      text = readFileSync(table, 'latin1')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      // local_address is fields[1] (address:port in hex), st is fields[3] (0A: listening), inode fields[9].
      if (fields[3] !== '0A' || !fields[1] || !fields[9]) continue
      const port = parseInt(fields[1].split(':').pop()!, 16)
      byInode.set(fields[9], [...(byInode.get(fields[9]) ?? []), port])
    }
  }
  return byInode
}

function socketsOf(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? []
      } catch {
        return []
      }
    })
  } catch {
    return []
  }
}
