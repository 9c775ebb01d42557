import { writeFile } from 'node:fs/promises'
import { BaseCommand, args } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { OpenApiDocumentService } from '#services/docs/openapi_document_service'

/**
 * `node ace openapi:write <file>`: writes the OpenAPI document `/schema/openapi.json` serves,
 * built the same way, without starting the server (the linters of `npm run lint:openapi` read it).
 */
export default class OpenApiWriteCommand extends BaseCommand {
  static commandName = 'openapi:write'
  static description = 'Write the served OpenAPI document to a file (or stdout with "-")'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Output file, "-" for stdout' })
  declare file: string

  async run() {
    const document = await new OpenApiDocumentService().document()
    const json = `${JSON.stringify(document, null, 2)}\n`
    if (this.file === '-') process.stdout.write(json)
    else await writeFile(this.file, json)
  }
}
