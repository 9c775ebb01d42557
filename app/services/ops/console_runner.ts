import { spawn } from 'node:child_process'
import { constants as osConstants } from 'node:os'
import { isAbsolute, join } from 'node:path'
import OpsConsoleBusyException from '#exceptions/ops_console_busy_exception'
import OpsConsoleCommandNotAllowedException from '#exceptions/ops_console_command_not_allowed_exception'

/** Read-only commands allowed when OPS_CONSOLE_COMMANDS is not set. */
export const DEFAULT_CONSOLE_COMMANDS = ['list', 'migration:status', 'sync:status']
/** Output kept per run (stdout and stderr together); the rest is counted and dropped. */
export const CONSOLE_OUTPUT_LIMIT_BYTES = 256 * 1024
/** Exit code reported for a run that was stopped by the timeout (as GNU `timeout` does). */
export const TIMEOUT_EXIT_CODE = 124
/** Grace period between SIGTERM and SIGKILL when a run times out. */
const KILL_GRACE_MS = 2000
/** Child processes one server process runs at the same time (each boots the whole app). */
export const MAX_CONCURRENT_RUNS = 2
const MAX_ARGS = 32
const MAX_ARG_LENGTH = 512

/** What one console run did; a failing command is `success: false` with its exit code. */
export interface ConsoleRunResult {
  success: boolean
  /** The command as run: name and arguments joined by spaces (scrubbed). */
  command: string
  /** stdout and stderr together, ANSI sequences removed, capped at the output limit, scrubbed. */
  output: string
  /** TIMEOUT_EXIT_CODE after the timeout, 127 when the child could not start, 128 + n on signal n. */
  exitCode: number
  timedOut: boolean
  /** True when output beyond the limit was dropped. */
  truncated: boolean
  durationMs: number
}

export interface ConsoleRunnerOptions {
  /** Allowlisted command names (exact match). */
  allowed: string[]
  /** Wall-clock limit of one run. */
  timeoutMs: number
  /** Application root: the working directory of the child. */
  cwd: string
  /** Entry script run by node, relative to `cwd` (default `ace.js`). */
  aceScript?: string
  /** Node binary (default: the running one, `process.execPath`). */
  nodeBinary?: string
  outputLimitBytes?: number
  /** Environment of the child (default: this process's environment). */
  env?: NodeJS.ProcessEnv
  /**
   * Applied to the output and the echoed command before they are returned (secrets, absolute
   * paths); `truncated` says the output was cut at the limit. Default: no change.
   */
  scrub?: (text: string, options: { truncated: boolean }) => string
}

/** Splits OPS_CONSOLE_COMMANDS (comma-separated) into names; empty or unset gives the defaults. */
export function parseConsoleAllowlist(raw: string | null | undefined): string[] {
  if (raw === null || raw === undefined || raw.trim() === '') return [...DEFAULT_CONSOLE_COMMANDS]
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  return [...new Set(names)]
}

/**
 * Splits a command line into words on whitespace, honouring single and double quotes (the
 * quotes are removed). No other shell syntax exists: nothing is expanded or interpreted.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = []
  let current = ''
  let quote: '"' | "'" | null = null
  let inWord = false
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = null
      else current += char
    } else if (char === '"' || char === "'") {
      quote = char
      inWord = true
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current)
      current = ''
      inWord = false
    } else {
      current += char
      inWord = true
    }
  }
  if (inWord) words.push(current)
  return words
}

// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g

/**
 * Runs allowlisted Ace commands as `node ace <command> [args]` in a child process: no shell,
 * the running node binary, a wall-clock timeout (SIGTERM, then SIGKILL) and an output cap.
 * A failing command is a normal result (`success: false`, its exit code), never an exception.
 */
export class ConsoleRunner {
  /** Runs in progress in this process, across instances. */
  static running = 0

  constructor(protected options: ConsoleRunnerOptions) {}

  /** The allowlist, in configured order. */
  list(): string[] {
    return [...this.options.allowed]
  }

  isAllowed(name: string): boolean {
    return this.options.allowed.includes(name)
  }

  /**
   * Parses `command` (a name optionally followed by arguments) and runs it. Throws
   * OpsConsoleCommandNotAllowedException (403) when the name is not allowlisted or the
   * arguments are unusable, OpsConsoleBusyException (429) when MAX_CONCURRENT_RUNS are running.
   */
  async run(commandLine: string, extraArgs: string[] = []): Promise<ConsoleRunResult> {
    const [name = '', ...args] = splitCommandLine(commandLine)
    const allArgs = [...args, ...extraArgs]
    if (!this.isAllowed(name)) {
      throw new OpsConsoleCommandNotAllowedException(
        `Command "${name}" is not allowed. Allowed commands: ${this.options.allowed.join(', ') || '(none)'}`,
        this.list()
      )
    }
    if (allArgs.length > MAX_ARGS || allArgs.some((arg) => arg.length > MAX_ARG_LENGTH || arg.includes('\0'))) {
      throw new OpsConsoleCommandNotAllowedException(
        `Arguments of "${name}" are not allowed (at most ${MAX_ARGS} arguments of ${MAX_ARG_LENGTH} characters)`,
        this.list()
      )
    }
    if (ConsoleRunner.running >= MAX_CONCURRENT_RUNS) {
      throw new OpsConsoleBusyException(
        `${MAX_CONCURRENT_RUNS} console commands are already running; try again shortly.`
      )
    }
    ConsoleRunner.running++
    try {
      return await this.spawnAce(name, allArgs)
    } finally {
      ConsoleRunner.running--
    }
  }

  protected spawnAce(name: string, args: string[]): Promise<ConsoleRunResult> {
    const script = this.options.aceScript ?? 'ace.js'
    const scriptPath = isAbsolute(script) ? script : join(this.options.cwd, script)
    const limit = this.options.outputLimitBytes ?? CONSOLE_OUTPUT_LIMIT_BYTES
    const commandText = [name, ...args].join(' ')
    const startedAt = process.hrtime.bigint()

    return new Promise((resolve) => {
      const chunks: Buffer[] = []
      let kept = 0
      let dropped = 0
      let timedOut = false
      let settled = false
      let killTimer: NodeJS.Timeout | null = null

      const child = spawn(this.options.nodeBinary ?? process.execPath, [scriptPath, name, ...args], {
        cwd: this.options.cwd,
        env: { ...(this.options.env ?? process.env), NO_COLOR: '1', FORCE_COLOR: '0' },
        shell: false,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      })

      const collect = (chunk: Buffer) => {
        const room = limit - kept
        if (room > 0) {
          const piece = chunk.length > room ? chunk.subarray(0, room) : chunk
          chunks.push(piece)
          kept += piece.length
        }
        dropped += Math.max(0, chunk.length - Math.max(0, room))
      }
      child.stdout.on('data', collect)
      child.stderr.on('data', collect)

      const signalGroup = (signal: NodeJS.Signals) => {
        try {
          // detached: the child leads its own process group, so its children stop with it.
          if (child.pid !== undefined) process.kill(-child.pid, signal)
        } catch {
          child.kill(signal)
        }
      }

      const timer = setTimeout(() => {
        timedOut = true
        signalGroup('SIGTERM')
        killTimer = setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS)
      }, this.options.timeoutMs)

      const finish = (exitCode: number, extra = '') => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        if (killTimer) clearTimeout(killTimer)
        const scrub = this.options.scrub ?? ((text: string) => text)
        // Scrubbed after the ANSI sequences are gone (a colour code could split a secret) and
        // before the runner's own notes are added.
        let output = scrub(Buffer.concat(chunks, kept).toString('utf8').replace(ANSI_SEQUENCE, ''), { truncated: dropped > 0 })
        if (extra) output += (output && !output.endsWith('\n') ? '\n' : '') + scrub(extra, { truncated: false })
        if (dropped > 0) output += `${output.endsWith('\n') ? '' : '\n'}[output truncated: ${dropped} more bytes not shown]`
        if (timedOut) output += `${output.endsWith('\n') || output === '' ? '' : '\n'}[timed out after ${this.options.timeoutMs / 1000} s]`
        const code = timedOut ? TIMEOUT_EXIT_CODE : exitCode
        resolve({
          success: !timedOut && code === 0,
          command: scrub(commandText, { truncated: false }),
          output,
          exitCode: code,
          timedOut,
          truncated: dropped > 0,
          durationMs: Math.round(Number(process.hrtime.bigint() - startedAt) / 1e6),
        })
      }

      child.on('error', (error) => finish(127, `failed to start: ${error.message}`))
      child.on('close', (code, signal) => {
        const signalNumber = signal ? ((osConstants.signals as Record<string, number>)[signal] ?? 15) : 0
        finish(code ?? 128 + signalNumber)
      })
    })
  }
}
