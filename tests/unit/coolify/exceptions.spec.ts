import { test } from '@japa/runner'
import { problemFor } from '#exceptions/problem_details'
import CoolifyUpstreamException from '#exceptions/coolify_upstream_exception'
import CoolifyRequestException from '#exceptions/coolify_request_exception'
import CoolifyTimeoutException from '#exceptions/coolify_timeout_exception'
import CoolifyTokenRejectedException from '#exceptions/coolify_token_rejected_exception'
import CoolifyUnreachableException from '#exceptions/coolify_unreachable_exception'
import CoolifyUpstreamErrorException from '#exceptions/coolify_upstream_error_exception'
import CoolifyOpsNotConfiguredException from '#exceptions/coolify_ops_not_configured_exception'
import CoolifyOpsUnreachableException from '#exceptions/coolify_ops_unreachable_exception'
import CoolifyOpsInvalidResponseException from '#exceptions/coolify_ops_invalid_response_exception'

test.group('Coolify exceptions | problem contract', () => {
  test('{name} keeps its status, code and upstream')
    .with([
      { name: 'CoolifyRequestException', make: () => new CoolifyRequestException('x'), status: 400, code: 'E_COOLIFY_REQUEST', upstream: 'coolify' },
      { name: 'CoolifyTimeoutException', make: () => new CoolifyTimeoutException('x'), status: 504, code: 'E_COOLIFY_TIMEOUT', upstream: 'coolify' },
      { name: 'CoolifyTokenRejectedException', make: () => new CoolifyTokenRejectedException('x'), status: 502, code: 'E_COOLIFY_TOKEN_REJECTED', upstream: 'coolify' },
      { name: 'CoolifyUnreachableException', make: () => new CoolifyUnreachableException('x'), status: 502, code: 'E_COOLIFY_UNREACHABLE', upstream: 'coolify' },
      { name: 'CoolifyUpstreamErrorException', make: () => new CoolifyUpstreamErrorException('x'), status: 502, code: 'E_COOLIFY_UPSTREAM_ERROR', upstream: 'coolify' },
      { name: 'CoolifyOpsNotConfiguredException', make: () => new CoolifyOpsNotConfiguredException('x'), status: 409, code: 'E_COOLIFY_OPS_NOT_CONFIGURED', upstream: 'ops' },
      { name: 'CoolifyOpsUnreachableException', make: () => new CoolifyOpsUnreachableException('x'), status: 502, code: 'E_COOLIFY_OPS_UNREACHABLE', upstream: 'ops' },
      { name: 'CoolifyOpsInvalidResponseException', make: () => new CoolifyOpsInvalidResponseException('x', 200), status: 502, code: 'E_COOLIFY_OPS_INVALID_RESPONSE', upstream: 'ops' },
    ])
    .run(({ assert }, row) => {
      const error = row.make()
      assert.isTrue(error instanceof CoolifyUpstreamException)
      const { status, body, headers } = problemFor(error)
      assert.equal(status, row.status)
      assert.containsSubset(body, { status: row.status, code: row.code, upstream: row.upstream, detail: 'x' })
      assert.deepEqual(headers, {})
    })

  test('extensions and headers are per instance', ({ assert }) => {
    const first = new CoolifyRequestException('x', { status: 429 })
    first.headers['Retry-After'] = '7'
    first.problemExtensions.errors = []
    const second = new CoolifyRequestException('y', { status: 422 })
    assert.deepEqual(second.headers, {})
    assert.deepEqual(second.problemExtensions, { upstream: 'coolify' })
    assert.equal(problemFor(first).headers['Retry-After'], '7')
    assert.equal(problemFor(new CoolifyOpsInvalidResponseException('x', 500)).body.upstream_status, 500)
  })
})
