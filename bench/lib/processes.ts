/*
|--------------------------------------------------------------------------
| Child processes of the benchmarks
|--------------------------------------------------------------------------
|
| Every process the benchmarks start (web servers, queue workers, the Polar
| simulator, setup tasks) goes through here, so each one is stopped by its
| pid when the run ends, also when it fails.
|
*/
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const APP_ROOT = new URL('../../', import.meta.url)
export const ROOT = fileURLToPath(APP_ROOT)
/** The project's Node 24 runtime (the one `npm` scripts use). */
export const NODE = process.execPath

const children = new Set<ChildProcess>()

export interface Started {
  child: ChildProcess
  pid: number
  output: () => string
  stop: () => Promise<void>
}

/**
 * Starts `node --import=@poppinss/ts-exec <args>` in the project root (or `cwd`) with `env` added
 * (`compiled: true`: plain `node <args>`, for JavaScript from `node ace build`).
 */
export function startNode(
  args: string[],
  env: Record<string, string>,
  options: { ipc?: boolean; compiled?: boolean; cwd?: string; cpus?: string } = {}
): Started {
  const nodeArgs = options.compiled ? args : ['--import=@poppinss/ts-exec', ...args]
  // `taskset` execs node in place: the child's pid is node's, every thread on the given CPUs.
  const [command, commandArgs] = options.cpus ? ['taskset', ['-c', options.cpus, NODE, ...nodeArgs]] : [NODE, nodeArgs]
  const child = spawn(command, commandArgs, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  let log = ''
  const append = (chunk: Buffer) => {
    log += chunk.toString()
    if (log.length > 200_000) log = log.slice(-100_000)
  }
  child.stdout?.on('data', append)
  child.stderr?.on('data', append)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.once('exit', () => children.delete(child))
  return {
    child,
    pid: child.pid!,
    output: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    },
  }
}

/** Runs a node script to completion and returns its stdout; rejects on a non-zero exit. */
export async function runNode(args: string[], env: Record<string, string>): Promise<string> {
  const started = startNode(args, env)
  const code = await new Promise<number | null>((resolve) => started.child.once('exit', (c) => resolve(c)))
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}\n${started.output().slice(-4000)}`)
  return started.output()
}

/** The last line of a task's output that parses as JSON. */
export function lastJson<T>(output: string): T {
  const lines = output.trim().split('\n').reverse()
  for (const line of lines) {
    if (!line.startsWith('{')) continue
    try {
      return JSON.parse(line) as T
    } catch {}
  }
  throw new Error(`no JSON result in output:\n${output.slice(-4000)}`)
}

/** Kills every child still running (SIGKILL), synchronously; used on exit. */
export function killAll() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
}

process.once('exit', () => killAll())

/** Resident set size of a process in MB (Linux /proc). */
export function rssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null
  } catch {
    return null
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `url` until it answers 200 or `ms` pass. */
export async function waitForHttp(url: string, ms = 60_000, process?: Started): Promise<void> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (process && process.child.exitCode !== null) {
      throw new Error(`process exited before ${url} answered:\n${process.output().slice(-4000)}`)
    }
    try {
      const response = await fetch(url)
      if (response.ok) return
    } catch {}
    await sleep(100)
  }
  throw new Error(`${url} did not answer within ${ms} ms${process ? `:\n${process.output().slice(-4000)}` : ''}`)
}

/** Polls until `check` returns true or `ms` pass. */
export async function waitFor(check: () => Promise<boolean>, ms: number, stepMs = 200): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check()) return true
    await sleep(stepMs)
  }
  return false
}
