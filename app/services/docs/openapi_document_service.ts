import { readdir } from 'node:fs/promises'
import { extname } from 'node:path'
import app from '@adonisjs/core/services/app'
import type { OpenApiModule } from '#openapi/components'
import { problemSchema, withConditionalGet } from '#openapi/components'

/**
 * Builds the OpenAPI 3.1 document from every module in app/openapi/paths/
 * (one per surface area), once per process.
 */
export class OpenApiDocumentService {
  static #document: Promise<Record<string, unknown>> | undefined

  document() {
    OpenApiDocumentService.#document ??= this.build()
    return OpenApiDocumentService.#document
  }

  protected async build() {
    const dir = app.makePath('app/openapi/paths')
    const files = (await readdir(dir))
      .filter((file) => ['.ts', '.js'].includes(extname(file)) && !file.endsWith('.d.ts'))
      .sort()
    const paths: Record<string, unknown> = {}
    const schemas: Record<string, unknown> = { Problem: problemSchema }
    const tags: Array<{ name: string; description: string }> = []
    for (const file of files) {
      const module = (await import(new URL(file, `file://${dir}/`).href)) as OpenApiModule
      // Per path, methods of several modules merge (e.g. GET and DELETE /api/v1/users/{user_id}).
      for (const [path, item] of Object.entries(module.paths)) paths[path] = { ...(paths[path] ?? {}), ...item }
      Object.assign(schemas, module.schemas ?? {})
      tags.push(...(module.tags ?? []))
    }
    // The user data and analytics GETs go through the read cache (ETag, 304), unless marked `x-read-cache: false`.
    for (const [path, item] of Object.entries(paths) as Array<[string, Record<string, any>]>) {
      if (path.startsWith('/api/v1/users/{user_id}/') && item.get && item.get['x-read-cache'] !== false) {
        paths[path] = { ...item, get: withConditionalGet(item.get) }
      }
    }
    return {
      openapi: '3.1.0',
      info: {
        title: 'HRVault API',
        version: '1.0.0',
        description:
          'Health analytics for Polar wearables: raw data kept forever, baselines, anomalies, patterns and insights (Surface A); the operations API (Surface B); the Coolify dashboard API (Surface C). Errors are RFC 9457 problem+json.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/' }],
      tags,
      paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
      components: {
        schemas,
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          opsToken: { type: 'http', scheme: 'bearer', description: 'OPS_TOKENS / OPS_TOKEN bearer token' },
          adminSession: { type: 'apiKey', in: 'cookie', name: 'hrvault-session' },
        },
      },
    }
  }
}
