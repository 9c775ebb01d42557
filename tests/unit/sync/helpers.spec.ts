import { test } from '@japa/runner'
import NightlyRecharge from '#models/nightly_recharge'
import SkinTemperature from '#models/skin_temperature'
import SleepRecord from '#models/sleep_record'
import Spo2Test from '#models/spo2_test'
import { columnOf } from '#services/records/columns'
import { isLoopbackRedirect, parsePastedCallback } from '#services/polar/loopback_callback'
import { SYNC_TYPE_KEYS, SYNC_TYPES, emptyCounts } from '#services/sync/sync_types'

test.group('Sync | helpers', () => {
  test('mapper properties become snake_case columns', ({ assert }) => {
    assert.equal(columnOf(NightlyRecharge, 'beatToBeatAvg'), 'beat_to_beat_avg')
    assert.equal(columnOf(Spo2Test, 'spo2Class'), 'spo2_class')
    assert.equal(columnOf(SleepRecord, 'date'), 'date')
    assert.equal(columnOf(SkinTemperature, 'sleepTimeSkinTemperatureCelsius'), 'sleep_time_skin_temperature_celsius')
  })

  test('the engine covers the 11 spec result keys plus heart rate, the recharges just before sleep, sleep before the rest', ({ assert }) => {
    const keys = SYNC_TYPES.map((t) => t.key)
    assert.sameMembers(keys, [...SYNC_TYPE_KEYS])
    assert.lengthOf(keys, SYNC_TYPE_KEYS.length)
    // Recharges first: a new night's rendered lines are then rendered once, with its recharge.
    assert.deepEqual(keys.slice(0, 2), ['recharge', 'sleep'])
    // The other types in catalogue order (those reading the latest night's offset after sleep).
    assert.deepEqual(keys.slice(2), SYNC_TYPE_KEYS.filter((key) => key !== 'recharge' && key !== 'sleep'))
    assert.lengthOf(Object.keys(emptyCounts()), SYNC_TYPE_KEYS.length)
    assert.isAtLeast(SYNC_TYPE_KEYS.length, 12)
  })

  test('a pasted redirect URL or a bare code is understood', ({ assert }) => {
    assert.deepEqual(parsePastedCallback('https://x.example/cb?code=abc&state=s1'), { code: 'abc', state: 's1', error: null })
    assert.deepEqual(parsePastedCallback(' abc123 '), { code: 'abc123', state: null, error: null })
    assert.deepEqual(parsePastedCallback('http://localhost:8765/callback?error=access_denied&state=s'), {
      code: null,
      state: 's',
      error: 'access_denied',
    })
  })

  test('only plain-HTTP loopback redirect URIs get a listener', ({ assert }) => {
    assert.isTrue(isLoopbackRedirect('http://localhost:8765/callback'))
    assert.isTrue(isLoopbackRedirect('http://127.0.0.1:9000/cb'))
    assert.isFalse(isLoopbackRedirect('https://hrvault.example.com/oauth/polar/callback'))
    assert.isFalse(isLoopbackRedirect('not a url'))
  })
})
