import { headersTooLargeResponse, objectSchema, ref, type OpenApiModule } from '#openapi/components'

const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } })

/** Server health and the documentation endpoints (public, no key). */
export const tags = [
  {
    name: 'Server',
    description: 'Health and this documentation: public, no key, no cookie. Everything is served by this server (no CDN).',
  },
]

export const schemas = {
  ServerHealth: objectSchema({
    status: { type: 'string', enum: ['healthy', 'unhealthy'] },
    database: { type: 'string', enum: ['connected', 'disconnected'] },
  }),
}

export const paths: OpenApiModule['paths'] = {
  '/health': {
    get: {
      tags: ['Server'],
      summary: 'Server health',
      description:
        'Public liveness and database check for load balancers and uptime monitors: 200 while a `select 1` answers ' +
        'within 2 seconds, 503 otherwise. The operations API’s `/health` has the detailed report.',
      operationId: 'getHealth',
      security: [],
      responses: {
        200: { description: 'Healthy', content: { 'application/json': { schema: ref('ServerHealth') } } },
        ...headersTooLargeResponse(),
        503: { description: 'The database does not answer', content: { 'application/json': { schema: ref('ServerHealth') } } },
      },
    },
  },
  '/schema/openapi.json': {
    get: {
      tags: ['Server'],
      summary: 'This OpenAPI 3.1 document',
      description:
        'The machine-readable description of every route, with examples. Listed `CORS_ORIGINS` may read it ' +
        'from a browser.',
      operationId: 'getOpenApi',
      security: [],
      responses: {
        200: { description: 'OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } },
        ...headersTooLargeResponse(),
      },
    },
  },
  '/schema/swagger': {
    get: {
      tags: ['Server'],
      summary: 'Swagger UI',
      description: 'Swagger UI on this document, to read and try the routes (paste an API key under Authorize).',
      operationId: 'getSwagger',
      security: [],
      responses: { 200: html('Swagger UI page'), ...headersTooLargeResponse() },
    },
  },
  '/schema/redoc': {
    get: {
      tags: ['Server'],
      summary: 'ReDoc',
      description: 'ReDoc on this document: the same reference as one readable page.',
      operationId: 'getRedoc',
      security: [],
      responses: { 200: html('ReDoc page'), ...headersTooLargeResponse() },
    },
  },
  '/schema/assets/{package}/{file}': {
    get: {
      tags: ['Server'],
      summary: 'Documentation UI assets (served from installed packages)',
      description: 'The scripts, styles and images of the two documentation pages; only the files they load exist.',
      operationId: 'getDocsAsset',
      security: [],
      parameters: [
        {
          name: 'package',
          in: 'path',
          required: true,
          description: 'Which bundle: `swagger-ui`, `redoc` or `hrvault` (this server’s own page scripts and images).',
          schema: { type: 'string', enum: ['swagger-ui', 'redoc', 'hrvault'] },
        },
        { name: 'file', in: 'path', required: true, description: 'A file the pages load, e.g. `swagger-ui.css`.', schema: { type: 'string' } },
      ],
      responses: {
        200: {
          description: 'The asset (cacheable for a day)',
          content: {
            'text/javascript': { schema: { type: 'string' } },
            'text/css': { schema: { type: 'string' } },
            'image/svg+xml': { schema: { type: 'string' } },
          },
        },
        404: { description: 'Unknown asset', content: { 'application/problem+json': { schema: ref('Problem') } } },
      },
    },
  },
}
