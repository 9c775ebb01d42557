import { defineConfig } from '@adonisjs/core/bodyparser'

/*
|--------------------------------------------------------------------------
| Request bodies
|--------------------------------------------------------------------------
|
| The largest legitimate body is a Coolify environment value at its
| 65 535-character maximum: under 200 KB even when every character takes
| three UTF-8 bytes, so JSON stops at 256 KB. Forms (only curl and tests
| post them) stop at 64 KB. Plain-text bodies are never read, and no route
| takes uploads: multipart is never processed (GuardedBodyParserMiddleware
| answers it with a 415).
|
*/
const bodyParserConfig = defineConfig({
  allowedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  form: {
    convertEmptyStringsToNull: true,
    types: ['application/x-www-form-urlencoded'],
    limit: '64kb',
  },
  json: {
    convertEmptyStringsToNull: true,
    types: ['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report'],
    limit: '256kb',
  },
  raw: {
    types: [],
    limit: '64kb',
  },
  multipart: {
    autoProcess: false,
    convertEmptyStringsToNull: true,
    processManually: [],
    limit: '64kb',
    types: ['multipart/form-data'],
  },
})

/**
 * Raw body bytes one process holds at once, from the start of reading until the answer is
 * sent. Parsed JSON takes up to ~20× its raw size (`[{},{},…]`), so 1 MB bounds it near 20 MB;
 * a body waits up to `waitMs` for room, then gets a 503 with Retry-After.
 */
export const bodyBudget = { bytes: 1024 * 1024, waitMs: 5_000, maxWaiting: 256 }

export default bodyParserConfig
