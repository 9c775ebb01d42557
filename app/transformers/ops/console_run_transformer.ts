import { BaseTransformer } from '@adonisjs/core/transformers'
import type { ConsoleRunResult } from '#services/ops/console_runner'

/** `POST {ops}/console` answer: the run's outcome, its output and how long it took. */
export default class ConsoleRunTransformer extends BaseTransformer<ConsoleRunResult> {
  toObject() {
    const run = this.resource
    return {
      success: run.success,
      command: run.command,
      output: run.output,
      exit_code: run.exitCode,
      timed_out: run.timedOut,
      truncated: run.truncated,
      duration_ms: run.durationMs,
    }
  }
}
