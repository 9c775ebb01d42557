import { STATUS_CODES } from 'node:http'
import { errors as vineErrors } from '@vinejs/vine'
import { errors as lucidErrors } from '@adonisjs/lucid'
import { errors as authErrors } from '@adonisjs/auth'

/** One RFC 9457 problem: the JSON body plus headers that go with it (Retry-After, RateLimit-*). */
export interface ProblemDetails {
  status: number
  body: {
    type: string
    title: string
    status: number
    detail: string
    code?: string
    errors?: Array<{ field: string; rule: string; message: string }>
    [extension: string]: unknown
  }
  headers: Record<string, string>
}

/** Driver error codes meaning "the database is not answering" (503, not 500). */
const DATABASE_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
])

const titleOf = (status: number) => STATUS_CODES[status] ?? 'Error'

export function problem(
  status: number,
  detail: string,
  extra: Partial<ProblemDetails['body']> = {},
  headers: Record<string, string> = {}
): ProblemDetails {
  return {
    status,
    body: { type: 'about:blank', title: titleOf(status), status, detail, ...extra },
    headers,
  }
}

function isDatabaseUnavailable(error: any): boolean {
  if (!error || typeof error !== 'object') return false
  if (error.name === 'KnexTimeoutError') return true
  if (typeof error.code === 'string' && DATABASE_DOWN_CODES.has(error.code)) return true
  if (Array.isArray(error.errors)) return error.errors.some(isDatabaseUnavailable)
  return /Connection terminated|connect ECONNREFUSED|database system is (starting|shutting)|is not currently accepting connections|Cannot open database because/i.test(
    String(error.message ?? '')
  )
}

/**
 * A validated field under the name the client used: path parameters are validated inside `params`
 * (`params.date`), but the client sent `date`, as it sent the query parameter `days`.
 */
function clientField(field: string): string {
  return field.startsWith('params.') ? field.slice('params.'.length) : field
}

/**
 * Maps any thrown value to a problem. Exceptions with a 4xx/5xx `status`
 * keep it and their message; framework errors get their contract status;
 * anything unknown is a generic 500 with no internals.
 */
export function problemFor(error: any): ProblemDetails {
  if (error instanceof vineErrors.E_VALIDATION_ERROR) {
    const messages = (error.messages ?? []) as Array<{ field: string; rule: string; message: string }>
    return problem(422, 'The request has invalid parameters.', {
      code: 'E_VALIDATION_ERROR',
      errors: messages.map(({ field, rule, message }) => ({ field: clientField(field), rule, message })),
    })
  }
  if (error instanceof lucidErrors.E_ROW_NOT_FOUND) {
    return problem(404, 'The requested record does not exist.', { code: 'E_ROW_NOT_FOUND' })
  }
  if (error instanceof authErrors.E_UNAUTHORIZED_ACCESS) {
    return problem(401, 'Authentication is required.', { code: 'E_UNAUTHORIZED_ACCESS' })
  }
  if (error?.code === 'E_ROUTE_NOT_FOUND') {
    return problem(404, 'No route matches this method and path.', { code: 'E_ROUTE_NOT_FOUND' })
  }
  if (error?.code === 'E_BAD_CSRF_TOKEN') {
    return problem(403, 'The CSRF token is missing or invalid.', { code: 'E_BAD_CSRF_TOKEN' })
  }
  if (error instanceof SyntaxError || error?.type === 'entity.parse.failed') {
    return problem(400, 'The request body is not valid JSON.', { code: 'E_MALFORMED_BODY' })
  }
  if (isDatabaseUnavailable(error)) {
    return problem(503, 'The database is unavailable. Try again shortly.', { code: 'E_DATABASE_UNAVAILABLE' }, {
      'Retry-After': '5',
    })
  }

  const status = Number(error?.status)
  if (Number.isInteger(status) && status >= 400 && status < 600 && status !== 500) {
    const extra: Partial<ProblemDetails['body']> = {}
    if (typeof error.code === 'string') extra.code = error.code
    if (error.problemExtensions && typeof error.problemExtensions === 'object') {
      Object.assign(extra, error.problemExtensions)
    }
    const headers = (error.headers && typeof error.headers === 'object' ? error.headers : {}) as Record<string, string>
    return problem(status, String(error.message || titleOf(status)), extra, headers)
  }
  return problem(500, 'An unexpected error occurred. It has been logged.', { code: 'E_INTERNAL' })
}

/**
 * Answer to a request whose URL cannot be decoded (`%zz`, truncated UTF-8),
 * rejected by the HTTP server before routing: problem+json on the API
 * surfaces (chosen by the raw path), plain text elsewhere.
 */
export function writeBadUrlResponse(path: string, isProblemPath: (path: string) => boolean, res: import('node:http').ServerResponse) {
  if (res.headersSent) return res.end()
  if (isProblemPath(path.split('?')[0])) {
    const { status, body } = problem(400, 'The request URL is not validly percent-encoded.', { code: 'E_BAD_URL' })
    res.writeHead(status, { 'Content-Type': 'application/problem+json; charset=utf-8' })
    return res.end(JSON.stringify(body))
  }
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' })
  res.end('Bad Request')
}
