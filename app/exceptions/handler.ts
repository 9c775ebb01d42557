import env from '#start/env'
import { errors as vineErrors } from '@vinejs/vine'
import { ExceptionHandler, type HttpContext } from '@adonisjs/core/http'
import { isProblemJsonPath } from '#config/surfaces'
import { ProblemDetails, problemFor } from '#exceptions/problem_details'
import MalformedRequestException from '#exceptions/malformed_request_exception'

/**
 * Renders every error on the API surfaces (`/api`, OPS_PREFIX, the
 * dashboard API, `/schema`, `/health`) as RFC 9457 problem+json, chosen by
 * path so clients without an Accept header get JSON too. Other paths (the
 * admin UI) keep the framework's rendering. Never a stack trace.
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
    if (!isProblemJsonPath(ctx.request.url())) {
      return super.handle(error, ctx)
    }
    const problem = problemFor(error)
    this.send(problem, ctx)
  }

  async report(error: unknown, ctx: HttpContext) {
    if (error instanceof vineErrors.E_VALIDATION_ERROR) return
    if (error instanceof URIError) return
    return super.report(error, ctx)
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
