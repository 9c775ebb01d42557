import env from '#start/env'
import { errors as vineErrors } from '@vinejs/vine'
import { ExceptionHandler, type HttpContext } from '@adonisjs/core/http'
import { isOAuthEndpointPath, isProblemJsonPath } from '#config/surfaces'
import { ProblemDetails, problem, problemFor } from '#exceptions/problem_details'
import MalformedRequestException from '#exceptions/malformed_request_exception'
import { authorizationPageErrorFor, oauthErrorFor, type OAuthErrorResponse } from '#exceptions/oauth_errors'
import { OAUTH_AUTHORIZE_PATH } from '#services/admin/security_headers'
import { allowedMethods, isMethodCheckedPath } from '#services/api/allowed_methods'

/**
 * Renders every error on the API surfaces (`/api`, OPS_PREFIX, the
 * dashboard API, `/schema`, `/health`) as RFC 9457 problem+json, chosen by
 * path so clients without an Accept header get JSON too. Other paths (the
 * admin UI) keep the framework's rendering. The OAuth endpoints answer their RFCs' error JSON,
 * and the authorization endpoint an error page. Never a stack trace.
 */
export default class HttpExceptionHandler extends ExceptionHandler {
  /** Detailed error pages only under `node ace serve` (NODE_ENV=development), never for `npm start`. */
  protected debug = env.get('NODE_ENV') === 'development'

  /** Expected client errors are not reported to the log. */
  protected ignoreStatuses = [400, 401, 403, 404, 405, 409, 413, 415, 422, 429]

  async handle(error: unknown, ctx: HttpContext) {
    // decodeURIComponent failing on a cookie or header value (e.g. `X-XSRF-TOKEN: %zz`).
    if (error instanceof URIError) {
      error = new MalformedRequestException('The request contains a value that is not validly percent-encoded.')
    }
    const path = ctx.request.url()
    // OAuth clients parse RFC 6749 / RFC 7591 error JSON, not problem+json.
    const oauthError = isOAuthEndpointPath(path) ? oauthErrorFor(error, path) : null
    if (oauthError) return this.sendOAuthError(oauthError, ctx)
    // Before the client's redirect URI is known valid, authorization errors are shown, never redirected.
    const pageError = path === OAUTH_AUTHORIZE_PATH && 'inertia' in ctx ? authorizationPageErrorFor(error) : null
    if (pageError !== null) {
      const page = await ctx.inertia.render('oauth/error', { message: pageError })
      return ctx.response.status(400).send(page)
    }
    if (!isProblemJsonPath(path)) {
      return super.handle(error, ctx)
    }
    if ((error as { code?: string })?.code === 'E_ROUTE_NOT_FOUND' && isMethodCheckedPath(path)) {
      const allowed = allowedMethods(path)
      if (allowed.length > 0) return this.methodNotAllowed(allowed, ctx)
    }
    const problem = problemFor(error)
    this.send(problem, ctx)
  }

  /**
   * An existing /api/v1 path asked with another method: 405 with `Allow` (RFC 9110 §15.5.6); a
   * plain `OPTIONS` (no CORS preflight, which the CORS middleware answers) gets 204 with `Allow`.
   */
  protected methodNotAllowed(allowed: string[], ctx: HttpContext) {
    const allow = [...allowed, 'OPTIONS'].join(', ')
    const method = ctx.request.method()
    if (method === 'OPTIONS') return ctx.response.header('Allow', allow).status(204).send('')
    this.send(
      problem(405, `${method} is not allowed on this path; it accepts ${allowed.join(', ')}.`, { code: 'E_METHOD_NOT_ALLOWED' }, { Allow: allow }),
      ctx
    )
  }

  async report(error: unknown, ctx: HttpContext) {
    if (error instanceof vineErrors.E_VALIDATION_ERROR) return
    if (error instanceof URIError) return
    return super.report(error, ctx)
  }

  protected sendOAuthError(answer: OAuthErrorResponse, ctx: HttpContext) {
    for (const [name, value] of Object.entries(answer.headers)) {
      ctx.response.header(name, value)
    }
    ctx.response.status(answer.status).header('Cache-Control', 'no-store').json(answer.body)
  }

  protected send(problem: ProblemDetails, ctx: HttpContext) {
    for (const [name, value] of Object.entries(problem.headers)) {
      ctx.response.header(name, value)
    }
    ctx.response
      .status(problem.status)
      .header('Content-Type', 'application/problem+json; charset=utf-8')
      .send(JSON.stringify(problem.body))
  }
}
