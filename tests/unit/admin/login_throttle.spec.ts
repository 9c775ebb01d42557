import { test } from '@japa/runner'
import {
  LOGIN_BACKOFF_MAX_SECONDS,
  LOGIN_FREE_FAILURES,
  loginBackoffSeconds,
  throttleAddress,
} from '#services/admin/login_throttle_service'

test.group('Admin login throttle | backoff', () => {
  test('the first failures are free, then the wait doubles from 1 s up to 15 minutes', ({ assert }) => {
    const waits = Array.from({ length: LOGIN_FREE_FAILURES + 14 }, (_, i) => loginBackoffSeconds(i + 1))
    assert.deepEqual(waits.slice(0, LOGIN_FREE_FAILURES), Array(LOGIN_FREE_FAILURES).fill(0))
    assert.deepEqual(waits.slice(LOGIN_FREE_FAILURES), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900, 900])
    assert.equal(loginBackoffSeconds(10_000), LOGIN_BACKOFF_MAX_SECONDS)
    assert.equal(loginBackoffSeconds(0), 0)
  })
})

test.group('Admin login throttle | address', () => {
  test('{ip} is counted as {expected}')
    .with([
      { ip: '203.0.113.7', expected: '203.0.113.7' },
      { ip: '::ffff:203.0.113.7', expected: '203.0.113.7' },
      { ip: '2001:db8:1:2:3:4:5:6', expected: '2001:db8:1:2::/64' },
      { ip: '2001:db8:1:2:ffff::1', expected: '2001:db8:1:2::/64' },
      { ip: '2001:0DB8:0001:0002::', expected: '2001:db8:1:2::/64' },
      { ip: '2001:db8::1', expected: '2001:db8:0:0::/64' },
      { ip: '::1', expected: '0:0:0:0::/64' },
      { ip: 'fe80::1%eth0', expected: 'fe80:0:0:0::/64' },
      { ip: '64:ff9b::192.0.2.1', expected: '64:ff9b:0:0::/64' },
      { ip: 'not an address', expected: 'not an address' },
    ])
    .run(({ assert }, row) => {
      assert.equal(throttleAddress(row.ip), row.expected)
    })
})
