import { test } from '@japa/runner'
import env from '#start/env'
import { send } from '#tests/helpers/fuzz/http'

const port = () => Number(env.get('PORT'))

test.group('Reliability | undecodable URLs', () => {
  test('an undecodable URL on an API surface is a 400 problem+json', async ({ assert }) => {
    for (const path of ['/api/v1/users/%zz/sleep', '/ops/logs/%E0%A4%A', '/coolify/api/applications/%']) {
      const response = await send(port(), { method: 'GET', path, headers: [] })
      assert.equal(response.status, 400, path)
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/, path)
      assert.containsSubset(JSON.parse(response.body), { status: 400, code: 'E_BAD_URL', title: 'Bad Request' })
    }
  })

  test('an undecodable URL elsewhere stays a plain 400', async ({ assert }) => {
    const response = await send(port(), { method: 'GET', path: '/admin/%zz', headers: [] })
    assert.equal(response.status, 400)
    assert.match(String(response.headers['content-type']), /^text\/plain/)
  })
})

test.group('Reliability | undecodable cookies and CSRF headers', () => {
  const cases: Array<[string, string]> = [
    ['POST', '/coolify/api/servers/a0hrvault0app0000000001/validate'],
    ['POST', '/admin/login'],
    ['POST', '/admin/setup'],
  ]
  for (const [method, path] of cases) {
    test(`a malformed session cookie or X-XSRF-TOKEN on ${method} ${path} is refused, never a 500`, async ({ assert }) => {
      for (const value of ['%', '%zz', 'AZ+H+Hx/%*', '%E0%A4%A']) {
        const response = await send(port(), {
          method,
          path,
          headers: [['Cookie', `hrvault-session=${value}; XSRF-TOKEN=${value}`], ['X-XSRF-TOKEN', value], ['Content-Type', 'application/json']],
          body: '{}',
        })
        assert.isBelow(response.status, 500, `${value}: ${response.body.slice(0, 200)}`)
        assert.isAtLeast(response.status, 300, value)
      }
    })
  }
})
