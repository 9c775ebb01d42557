import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OpsConsoleService } from '#services/ops/console_service'

/** GET {ops}/console — the allowlisted Ace commands. */
@inject()
export default class ConsoleController {
  constructor(protected console: OpsConsoleService) {}

  async index({ response }: HttpContext) {
    return response.json({ commands: this.console.list() })
  }
}
