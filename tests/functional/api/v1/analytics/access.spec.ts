import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { createUser, userWithApiKey } from '#tests/helpers/fixtures'
import { pinClock } from '#tests/helpers/clock'
import { NOW, url } from './helpers.js'

type Route = ['GET' | 'POST', string]

const ROUTES: Route[] = [
  ['GET', 'baselines'],
  ['GET', 'baselines/hrv_rmssd'],
  ['POST', 'baselines/calculate'],
  ['GET', 'baselines/check/hrv_rmssd/50'],
  ['GET', 'anomalies'],
  ['GET', 'analytics/status'],
  ['GET', 'patterns'],
  ['GET', 'patterns/hrv_trend'],
  ['POST', 'patterns/detect'],
  ['GET', 'insights'],
]

test.group('API v1 analytics | access', (group) => {
  group.setup(() => pinClock(NOW))
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('{0} {1} of an unknown user is a 404 problem')
    .with(ROUTES)
    .run(async ({ client, assert }, [method, path]) => {
      const request = method === 'GET' ? client.get(url('nobody_here', path)) : client.post(url('nobody_here', path))
      const response = await request
      response.assertStatus(404)
      assert.match(response.header('content-type') ?? '', /application\/problem\+json/)
    })

  test('{0} {1} with a malformed user id is a 422')
    .with(ROUTES)
    .run(async ({ client }, [method, path]) => {
      const target = url('bad*id', path)
      const response = method === 'GET' ? await client.get(target) : await client.post(target)
      response.assertStatus(422)
    })

  test('{0} {1} of another user with a user-scoped key is a 403')
    .with(ROUTES)
    .run(async ({ client }, [method, path]) => {
      const { apiKey } = await userWithApiKey()
      const other = await createUser()
      const target = url(other.externalId, path)
      const request = method === 'GET' ? client.get(target) : client.post(target)
      const response = await request.header('X-API-Key', apiKey)
      response.assertStatus(403)
    })
})
