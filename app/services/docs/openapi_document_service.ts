import { readdir, readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import app from '@adonisjs/core/services/app'
import type { OpenApiModule } from '#openapi/components'
import { problemSchema, withConditionalGet } from '#openapi/components'
import { GETTING_STARTED, TAG_GROUPS } from '#openapi/guide'

/** app/openapi/examples.json, written by `npm run openapi:examples` from real answers. */
interface CapturedExamples {
  operations: Record<string, Record<string, Record<string, unknown>>>
  problems: Record<string, { summary: string; value: unknown }>
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

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
    const examples = await this.capturedExamples()
    const withExamples = attachExamples(structuredClone(paths) as Record<string, Record<string, any>>, examples)
    const grouped = TAG_GROUPS.flatMap((group) => group.tags)
    return {
      openapi: '3.1.0',
      info: {
        title: 'HRVault API',
        version: '1.0.0',
        description: GETTING_STARTED,
        contact: { name: 'The administrators of this HRVault server' },
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/' }],
      tags: [...tags].sort((a, b) => grouped.indexOf(a.name) - grouped.indexOf(b.name)),
      'x-tagGroups': TAG_GROUPS,
      paths: Object.fromEntries(Object.entries(withExamples).sort(([a], [b]) => a.localeCompare(b))),
      components: {
        schemas,
        examples: Object.fromEntries(
          Object.entries(examples.problems).map(([id, { summary, value }]) => [id, { summary, value }])
        ),
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          opsToken: { type: 'http', scheme: 'bearer', description: 'OPS_TOKENS / OPS_TOKEN bearer token' },
          adminSession: { type: 'apiKey', in: 'cookie', name: 'hrvault-session' },
        },
      },
    }
  }

  /** The captured examples; none when the file is missing (the document stays valid without them). */
  protected async capturedExamples(): Promise<CapturedExamples> {
    try {
      return JSON.parse(await readFile(app.makePath('app/openapi/examples.json'), 'utf8')) as CapturedExamples
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { operations: {}, problems: {} }
      throw error
    }
  }
}

/**
 * Puts each captured answer on its operation's response: a 2xx as the media type's `example`, the
 * problems as named `examples` referencing `#/components/examples` (one body, many operations).
 * Answers of a status or media type the operation no longer declares are left out.
 */
function attachExamples(paths: Record<string, Record<string, any>>, examples: CapturedExamples) {
  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const operation = item[method]
      const captured = operation ? examples.operations[operation.operationId] : undefined
      if (!captured) continue
      for (const [status, byType] of Object.entries(captured)) {
        const content = operation.responses?.[status]?.content
        if (!content) continue
        for (const [type, value] of Object.entries(byType as Record<string, unknown>)) {
          const media = content[type]
          if (!media) continue
          if (type === 'application/problem+json') {
            const ids = (value as Array<{ $problem: string }>).map((entry) => entry.$problem).filter((id) => examples.problems[id])
            delete media.example
            media.examples = Object.fromEntries(ids.map((id) => [id, { $ref: `#/components/examples/${id}` }]))
          } else {
            media.example = value
          }
        }
      }
    }
  }
  return paths
}
