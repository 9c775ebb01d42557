import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OpenApiDocumentService } from '#services/docs/openapi_document_service'
import { DocsAssetsService } from '#services/docs/docs_assets_service'
import NotFoundException from '#exceptions/not_found_exception'

/** OpenAPI 3.1 document, Swagger UI and ReDoc, all served locally. */
@inject()
export default class DocsController {
  constructor(
    protected documents: OpenApiDocumentService,
    protected assets: DocsAssetsService
  ) {}

  async openapi({ response }: HttpContext) {
    return response.json(await this.documents.document())
  }

  async swagger({ response }: HttpContext) {
    return response.header('Content-Type', 'text/html; charset=utf-8').send(this.assets.swaggerPage())
  }

  async redoc({ response }: HttpContext) {
    return response.header('Content-Type', 'text/html; charset=utf-8').send(this.assets.redocPage())
  }

  async asset({ params, response }: HttpContext) {
    const asset = this.assets.resolve(String(params.package), String(params.file))
    if (!asset) throw new NotFoundException('No such documentation asset.')
    response.header('Content-Type', asset.type)
    response.header('Cache-Control', 'public, max-age=86400')
    const text = await this.assets.rewrittenText(String(params.package), String(params.file))
    return text === null ? response.download(asset.path) : response.send(text)
  }
}
