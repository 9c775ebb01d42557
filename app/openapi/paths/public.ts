import { objectSchema, type OpenApiModule } from '#openapi/components'

const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } })

/** Server health and the documentation endpoints (public, no key). */
export const tags = [{ name: 'Server', description: 'Health and documentation (public).' }]

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
      operationId: 'getHealth',
      security: [],
      responses: {
        200: { description: 'Healthy', content: { 'application/json': { schema: { $ref: '#/components/schemas/ServerHealth' } } } },
        503: { description: 'The database does not answer', content: { 'application/json': { schema: { $ref: '#/components/schemas/ServerHealth' } } } },
      },
    },
  },
  '/schema/openapi.json': {
    get: {
      tags: ['Server'],
      summary: 'This OpenAPI 3.1 document',
      operationId: 'getOpenApi',
      security: [],
      responses: { 200: { description: 'OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  },
  '/schema/swagger': {
    get: { tags: ['Server'], summary: 'Swagger UI', operationId: 'getSwagger', security: [], responses: { 200: html('Swagger UI page') } },
  },
  '/schema/redoc': {
    get: { tags: ['Server'], summary: 'ReDoc', operationId: 'getRedoc', security: [], responses: { 200: html('ReDoc page') } },
  },
  '/schema/assets/{package}/{file}': {
    get: {
      tags: ['Server'],
      summary: 'Documentation UI assets (served from installed packages)',
      operationId: 'getDocsAsset',
      security: [],
      parameters: [
        { name: 'package', in: 'path', required: true, schema: { type: 'string', enum: ['swagger-ui', 'redoc', 'hrvault'] } },
        { name: 'file', in: 'path', required: true, schema: { type: 'string' } },
      ],
      responses: {
        200: { description: 'The asset', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } },
        404: { description: 'Unknown asset', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
      },
    },
  },
}
