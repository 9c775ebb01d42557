import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { OpsAuditService } from '#services/ops/audit_service'
import { ConsoleRunner, parseConsoleAllowlist, type ConsoleRunResult } from '#services/ops/console_runner'
import { currentSecretScrubber } from '#services/ops/known_secrets'
import type { SecretScrubber } from '#services/ops/secret_scrubber'
import OpsConsoleBusyException from '#exceptions/ops_console_busy_exception'
import OpsConsoleCommandNotAllowedException from '#exceptions/ops_console_command_not_allowed_exception'

/** `{ops}/console`: the allowlisted Ace commands, run in a child process and audited. */
@inject()
export class OpsConsoleService {
  constructor(protected audit: OpsAuditService) {}

  protected runner(scrubber?: SecretScrubber) {
    return new ConsoleRunner({
      allowed: parseConsoleAllowlist(env.get('OPS_CONSOLE_COMMANDS')),
      timeoutMs: Math.max(0.1, env.get('OPS_CONSOLE_TIMEOUT_SECONDS', 60)) * 1000,
      cwd: app.makePath(),
      scrub: scrubber ? (text, options) => scrubber.scrub(text, options) : undefined,
    })
  }

  /** OPS_CONSOLE_COMMANDS, or the read-only defaults. */
  list(): string[] {
    return this.runner().list()
  }

  /**
   * Runs `command` (name plus optional arguments) and extra `args` for the token `actor`. Every
   * attempt is audited, refused (403) and busy (429) ones included. The output and the echoed
   * command come back with known secrets and absolute paths scrubbed (currentSecretScrubber).
   */
  async run(actor: string, command: string, args: string[] = []): Promise<ConsoleRunResult> {
    const scrubber = await currentSecretScrubber()
    let result: ConsoleRunResult
    try {
      result = await this.runner(scrubber).run(command, args)
    } catch (error) {
      const outcome =
        error instanceof OpsConsoleCommandNotAllowedException ? 'refused' : error instanceof OpsConsoleBusyException ? 'busy' : 'error'
      await this.audit.record({ actor, action: 'console.run', target: scrubber.scrub(command), outcome })
      throw error
    }
    await this.audit.record({
      actor,
      action: 'console.run',
      target: result.command,
      outcome: result.timedOut ? 'timeout' : result.success ? 'success' : 'failure',
      details: { exit_code: result.exitCode, duration_ms: result.durationMs, truncated: result.truncated },
    })
    return result
  }
}
