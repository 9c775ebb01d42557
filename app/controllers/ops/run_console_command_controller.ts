import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OpsConsoleService } from '#services/ops/console_service'
import ConsoleRunTransformer from '#transformers/ops/console_run_transformer'
import { runConsoleCommandValidator } from '#validators/ops'

/** POST {ops}/console — run one allowlisted command (403 otherwise). */
@inject()
export default class RunConsoleCommandController {
  constructor(protected console: OpsConsoleService) {}

  /** 200 with `success: false` and the exit code when the command itself fails. */
  async handle({ request, opsPrincipal, serialize }: HttpContext) {
    const { command, args } = await request.validateUsing(runConsoleCommandValidator)
    const run = await this.console.run(opsPrincipal!.name, command, args ?? [])
    return serialize(ConsoleRunTransformer.transform(run))
  }
}
