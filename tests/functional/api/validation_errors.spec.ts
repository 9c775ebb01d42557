import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { serviceApiKey, userWithApiKey } from '#tests/helpers/fixtures'

/**
 * A 422 names each field as the client sent it: the path parameter `date` (not `params.date`), the
 * query parameter `days`; the message speaks of the same name.
 */
test.group('API | validation errors name the field as sent', (group) => {
  group.each.setup(() => testUtils.db().withGlobalTransaction())

  test('{0}')
    .with([
      ['path date', 'sleep/2026-02-30', {}, 'date'],
      ['path date, malformed', 'activity/yesterday', {}, 'date'],
      ['path id', 'exercises/abc', {}, 'id'],
      ['path metric value', 'baselines/check/hrv_rmssd/abc', {}, 'value'],
      ['path run id', 'sync/runs/0', {}, 'run_id'],
      ['path export type', 'export/nothing.jsonl', {}, 'type'],
      ['query days', 'sleep', { days: 0 }, 'days'],
      ['query days on an export', 'export/sleep.csv', { days: 'abc' }, 'days'],
      ['query from', 'recharge', { from: '2026-13-01' }, 'from'],
      ['query to', 'recharge', { from: '2026-01-01', to: '2026-02-29' }, 'to'],
      ['query limit', 'activity', { limit: 5000 }, 'limit'],
      ['query cursor', 'activity', { limit: 5, cursor: '!!' }, 'cursor'],
      ['unknown query parameter', 'heart-rate', { dayz: 7 }, 'dayz'],
    ] as const)
    .run(async ({ client, assert }, [, path, qs, field]) => {
      const owner = await userWithApiKey()
      const response = await client
        .get(`/api/v1/users/${owner.user.externalId}/${path}`)
        .qs(qs)
        .header('X-API-Key', owner.apiKey)
      response.assertStatus(422)
      const errors = response.body().errors as Array<{ field: string; rule: string; message: string }>
      assert.deepEqual(
        errors.map((error) => error.field),
        [field]
      )
      assert.include(errors[0].message, field)
      assert.notInclude(errors[0].message, 'params.')
    })

  test('the path user id is named user_id', async ({ client, assert }) => {
    // A service key: a user-scoped key is refused (403) for any other user before validation.
    const response = await client.get('/api/v1/users/not%20valid/sleep').header('X-API-Key', await serviceApiKey())
    response.assertStatus(422)
    assert.deepEqual(
      response.body().errors.map((error: { field: string }) => error.field),
      ['user_id']
    )
  })
})
