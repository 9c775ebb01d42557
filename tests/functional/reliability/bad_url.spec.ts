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

test.group('Reliability | Inertia version check on hostile paths', () => {
  test('an X-Inertia request for a path with non-header characters gets an answer', async ({ assert }) => {
    for (const path of ['/admin/%E2%80%AE', '/admin/users/x/export/a%00b', '/coolify/apps/%CE%95%CC%80/ops?%0D%0AX-Injected%3A%201=1']) {
      const response = await send(port(), { method: 'GET', path, headers: [['X-Inertia', 'true'], ['X-Requested-With', 'XMLHttpRequest']] }, 10_000)
      assert.isBelow(response.status, 500, path)
      const location = String(response.headers['x-inertia-location'] ?? '')
      assert.notMatch(location, /[^\t\x20-\x7e]/, path)
    }
    // The server still answers.
    assert.equal((await send(port(), { method: 'GET', path: '/health', headers: [] })).status, 200)
  })
})
