import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** An HRVault process started by the scale-out tests. */
export interface AppProcess {
  name: string
  child: ChildProcess
  output(): string
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>
}

/**
 * A set of child processes (web servers, queue workers, schedulers) that are all stopped together:
 * SIGTERM, then SIGKILL after 5 s. A process-exit hook kills any that are still running, so no
 * child outlives a failed run.
 */
export class ProcessGroup {
  readonly processes: AppProcess[] = []
  #onExit = () => {
    for (const p of this.processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL')
  }

  constructor(protected baseEnv: Record<string, string>) {
    process.once('exit', this.#onExit)
  }

  /**
   * Starts `node --import=@poppinss/ts-exec <args>` in the project root (`typescript: false`: plain
   * `node <args>`, as `npm start` runs bin/start.mjs).
   */
  start(name: string, args: string[], env: Record<string, string> = {}, { typescript = true } = {}): AppProcess {
    const child = spawn(process.execPath, [...(typescript ? ['--import=@poppinss/ts-exec'] : []), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...this.baseEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let log = ''
    const append = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-50_000)
    }
    child.stdout!.on('data', append)
    child.stderr!.on('data', append)
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const started = { name, child, output: () => log, exited }
    this.processes.push(started)
    return started
  }

  /**
   * Web server on its own port (bin/server.ts, HRVAULT_ROLE=web); resolves once /health answers.
   * A start that dies in start/migrate.ts with "unable to release database lock" (PostgreSQL
   * advisory lock released on another pooled connection) is retried, at most twice.
   */
  async web(name: string, port: number, env: Record<string, string> = {}, attempt = 1): Promise<{ process: AppProcess; url: string }> {
    const web = this.start(name, ['bin/server.ts'], { HRVAULT_ROLE: 'web', PORT: String(port), ...env })
    return this.#answering(web, port, 45_000, () => this.web(name, port, env, attempt + 1), attempt)
  }

  /**
   * Web server started as `npm start` starts it (bin/start.mjs: the compiled build, made first when
   * missing or stale, hence the longer wait); resolves once /health answers.
   */
  async compiledWeb(name: string, port: number, env: Record<string, string> = {}, attempt = 1): Promise<{ process: AppProcess; url: string }> {
    const web = this.start(name, ['bin/start.mjs'], { HRVAULT_ROLE: 'web', PORT: String(port), ...env }, { typescript: false })
    return this.#answering(web, port, 300_000, () => this.compiledWeb(name, port, env, attempt + 1), attempt)
  }

  async #answering(
    web: AppProcess,
    port: number,
    waitMs: number,
    retry: () => Promise<{ process: AppProcess; url: string }>,
    attempt: number
  ): Promise<{ process: AppProcess; url: string }> {
    const name = web.name
    const url = `http://127.0.0.1:${port}`
    const deadline = Date.now() + waitMs
    while (Date.now() < deadline) {
      if (web.child.exitCode !== null) {
        if (attempt < 3 && /unable to release database lock/.test(web.output())) return retry()
        throw new Error(`${name} exited:\n${web.output()}`)
      }
      try {
        if ((await fetch(`${url}/health`)).ok) return { process: web, url }
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 150))
    }
    throw new Error(`${name} did not answer on ${url}:\n${web.output()}`)
  }

  /**
   * An ace command from source (bin/console.ts), or with `compiled` as `npm run start:worker` and
   * `start:scheduler` run theirs: `node bin/start.mjs ace <command>`, the compiled build (made
   * first when missing or stale).
   */
  startAce(name: string, args: string[], env: Record<string, string> = {}, { compiled = false } = {}): AppProcess {
    if (compiled) return this.start(name, ['bin/start.mjs', 'ace', ...args], env, { typescript: false })
    return this.start(name, ['bin/console.ts', ...args], env)
  }

  /** Runs an ace command to completion (see startAce) and returns its output. */
  async ace(name: string, args: string[], env: Record<string, string> = {}, options: { compiled?: boolean } = {}): Promise<string> {
    const command = this.startAce(name, args, env, options)
    const code = await command.exited
    if (code !== 0) throw new Error(`${name} exited with ${code}:\n${command.output()}`)
    return command.output()
  }

  /** Output of every process, for failure messages. */
  dump(): string {
    return this.processes.map((p) => `--- ${p.name} (pid ${p.child.pid})\n${p.output().slice(-3000)}`).join('\n')
  }

  async stopAll(): Promise<void> {
    await Promise.all(
      this.processes.map(async (p) => {
        if (p.child.exitCode !== null || p.child.signalCode !== null) return
        p.child.kill('SIGTERM')
        const timer = setTimeout(() => p.child.kill('SIGKILL'), 5000)
        await p.exited
        clearTimeout(timer)
      })
    )
    process.removeListener('exit', this.#onExit)
  }
}
