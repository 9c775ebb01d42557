import { test } from '@japa/runner'
import { firstOpsOrigin, normalizeOpsPrefix } from '#services/coolify/ops_target_service'
import { guardedLookup, isPublicAddress, OPS_PREFIX_PATTERN, opsRequestUrl, refuseOpsOrigin } from '#services/coolify/ops_target_policy'
import { countByStatus } from '#services/coolify/dashboard_stats_service'
import { parseDeploymentLogs, summarizeDeployment } from '#services/coolify/deployments_service'

test.group('Coolify ops target | domains and prefix', () => {
  test('takes the first https domain of a comma-separated fqdn', ({ assert }) => {
    assert.equal(firstOpsOrigin('http://a.example.com,https://b.example.com,https://c.example.com')?.origin, 'https://b.example.com')
  })

  test('accepts http only on loopback hosts', ({ assert }) => {
    assert.equal(firstOpsOrigin('http://127.0.0.1:3333')?.origin, 'http://127.0.0.1:3333')
    assert.equal(firstOpsOrigin('http://localhost:3333')?.origin, 'http://localhost:3333')
    assert.isNull(firstOpsOrigin('http://app.example.com'))
  })

  test('no fqdn, an empty fqdn or garbage gives null', ({ assert }) => {
    for (const fqdn of [null, undefined, '', ' , ', 'not a url']) assert.isNull(firstOpsOrigin(fqdn))
  })

  test('normalizes OPS_PREFIX with /ops as default', ({ assert }) => {
    assert.equal(normalizeOpsPrefix('ops'), '/ops')
    assert.equal(normalizeOpsPrefix('/internal/ops/'), '/internal/ops')
    assert.equal(normalizeOpsPrefix(''), '/ops')
    assert.equal(normalizeOpsPrefix(null), '/ops')
  })
})

test.group('Coolify | deployment and stats helpers', () => {
  test('parses Coolify log JSON strings, ordered, and tolerates garbage', ({ assert }) => {
    const raw = JSON.stringify([
      { output: 'second', order: 2, type: 'stdout', hidden: false },
      { output: 'first', order: 1, type: 'stderr', hidden: true, command: 'docker pull x' },
    ])
    assert.deepEqual(parseDeploymentLogs(raw).map((e) => [e.output, e.type, e.hidden]), [
      ['first', 'stderr', true],
      ['second', 'stdout', false],
    ])
    assert.deepEqual(parseDeploymentLogs('not json'), [])
    assert.deepEqual(parseDeploymentLogs(null), [])
    assert.deepEqual(parseDeploymentLogs('{"a":1}'), [])
  })

  test('summarizes a deployment without logs and with its duration', ({ assert }) => {
    const summary = summarizeDeployment({
      deployment_uuid: 'd1',
      logs: '[]',
      created_at: '2026-11-20T10:00:00.000000Z',
      finished_at: '2026-11-20T10:01:40.000000Z',
    })
    assert.notProperty(summary, 'logs')
    assert.equal(summary.duration_seconds, 100)
    assert.isNull(summarizeDeployment({ deployment_uuid: 'd2', created_at: '2026-11-20T10:00:00Z', finished_at: null }).duration_seconds)
  })

  test('counts statuses by their state part', ({ assert }) => {
    assert.deepEqual(countByStatus([{ status: 'running:healthy' }, { status: 'running:unknown' }, { status: 'exited' }, {}]), {
      total: 4,
      by_status: { running: 2, exited: 1, unknown: 1 },
    })
  })
})

test.group('Coolify ops target | policy', () => {
  test('accepts http on private IP literals as candidates (used only when allowed)', ({ assert }) => {
    assert.equal(firstOpsOrigin('http://10.0.0.5:3333')?.origin, 'http://10.0.0.5:3333')
    assert.equal(firstOpsOrigin('http://[::1]:3333')?.origin, 'http://[::1]:3333')
    assert.isNull(firstOpsOrigin('http://8.8.8.8'))
  })

  test('OPS_PREFIX {$self} is refused').with(['/ops?', '/ops#x', '/a/../b', '/ops.json', '/%2e%2e', '/ops x', '/ops\\x']).run(({ assert }, prefix) => {
    assert.notMatch(normalizeOpsPrefix(prefix), OPS_PREFIX_PATTERN)
  })

  test('OPS_PREFIX {$self} is accepted').with(['/ops', 'ops', '/internal/ops_v2/', '/a-b/c_d']).run(({ assert }, prefix) => {
    assert.match(normalizeOpsPrefix(prefix), OPS_PREFIX_PATTERN)
  })

  test('{$self} is not a public address')
    .with(['127.0.0.1', '10.1.2.3', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.1.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'localhost', 'not-an-ip'])
    .run(({ assert }, address) => {
      assert.isFalse(isPublicAddress(address))
    })

  test('{$self} is a public address').with(['1.1.1.1', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']).run(({ assert }, address) => {
    assert.isTrue(isPublicAddress(address))
  })

  test('without the setting, plain http and private targets are refused; with it, allowed', async ({ assert }) => {
    for (const url of ['http://ops.example.com', 'https://127.0.0.1', 'https://localhost:8443', 'https://[::1]', 'https://10.0.0.1']) {
      assert.isString(await refuseOpsOrigin(new URL(url), false), url)
      assert.isNull(await refuseOpsOrigin(new URL(url), true), url)
    }
    assert.isNull(await refuseOpsOrigin(new URL('https://8.8.8.8'), false))
  })

  test('the connection-time lookup refuses names that resolve to private addresses', async ({ assert }) => {
    const resolve = (allow: boolean) =>
      new Promise<string>((done) =>
        guardedLookup(allow)('localhost', { family: 4 }, (error, address) => done(error ? (error as { code: string }).code : String(address)))
      )
    assert.equal(await resolve(false), 'E_OPS_ADDRESS_REFUSED')
    assert.equal(await resolve(true), '127.0.0.1')
  })

  test('the request URL stays exactly under the prefix', ({ assert }) => {
    assert.equal(opsRequestUrl('https://h.example/ops', '/logs/app.log', { lines: 5, level: undefined })?.toString(), 'https://h.example/ops/logs/app.log?lines=5')
    for (const path of ['/logs/..', '/logs/%2e%2e', '/health?x=1', '/health#x', 'health', '/./health']) {
      assert.isNull(opsRequestUrl('https://h.example/ops', path, {}), path)
    }
    assert.isNull(opsRequestUrl('https://h.example/ops?', '/health', {}))
  })
})
