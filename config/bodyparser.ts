import { defineConfig } from '@adonisjs/core/bodyparser'

/**
 * Request bodies are small on every surface: JSON and forms are capped at
 * 1 MB, multipart (unused by the API) at 2 MB.
 */
const bodyParserConfig = defineConfig({
  allowedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  form: {
    convertEmptyStringsToNull: true,
    types: ['application/x-www-form-urlencoded'],
    limit: '1mb',
  },
  json: {
    convertEmptyStringsToNull: true,
    types: ['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report'],
    limit: '1mb',
  },
  multipart: {
    autoProcess: true,
    convertEmptyStringsToNull: true,
    processManually: [],
    limit: '2mb',
    types: ['multipart/form-data'],
  },
})

export default bodyParserConfig
