import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { LogReader, normaliseLevelName } from '#services/ops/log_reader'
import { defaultLogLines, readLogValidator } from '#validators/ops'

/** GET {ops}/logs and {ops}/logs/:file — the application's own log files. */
@inject()
export default class LogsController {
  constructor(protected logs: LogReader) {}

  /** `{files: [names]}`, most recently modified first. */
  async index({ response }: HttpContext) {
    return response.json({ files: await this.logs.listFiles() })
  }

  /** Newest `lines` entries of a listed file, newest first, optionally filtered. */
  async show({ request, response }: HttpContext) {
    const { params, lines, level, search } = await request.validateUsing(readLogValidator)
    const result = await this.logs.read(params.file, {
      lines: lines ?? defaultLogLines,
      level: level === undefined ? null : normaliseLevelName(level),
      search: search ?? null,
    })
    return response.json(result)
  }
}
