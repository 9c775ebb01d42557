import { test } from '@japa/runner'
import { firstOpsOrigin, normalizeOpsPrefix } from '#services/coolify/ops_target_service'
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
