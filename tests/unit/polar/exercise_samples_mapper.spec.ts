import { test } from '@japa/runner'
import ExerciseSample from '#models/exercise_sample'
import {
  SAMPLE_TYPES,
  mapExerciseSamples,
  mapExerciseSamplesList,
  type StoredRoute,
  type StoredSampleSeries,
  type StoredZone,
} from '#services/polar/mappers/exercise_samples_mapper'
import type { WireExercise } from '#services/polar/wire_types'

/**
 * An outdoor run as `GET /v3/exercises/{id}?samples=true&zones=true&route=true` answers it, with the
 * quirks live answers show: zone `index` from 0, `sample-type` as a string and as an integer,
 * `null` entries in `data`, RR intervals with a null recording rate, seconds-only ISO route times.
 */
const DETAIL = {
  'id': 'aQlC83xZ',
  'upload_time': '2026-08-17T18:02:11.000Z',
  'polar_user': 'https://www.polaraccesslink.com/v3/users/64323403',
  'device': 'Polar Vantage V3',
  'device_id': '12C52633',
  'start_time': '2026-08-17T17:30:00',
  'start_time_utc_offset': 120,
  'duration': 'PT1H0M12.5S',
  'calories': 702,
  'distance': 10012.5,
  'heart_rate': { average: 148, maximum: 171 },
  'sport': 'RUNNING',
  'has_route': true,
  'detailed_sport_info': 'RUNNING',
  'heart_rate_zones': [
    { 'index': 0, 'lower-limit': 93, 'upper-limit': 111, 'in-zone': 'PT2M30S' },
    { 'index': 1, 'lower-limit': 111, 'upper-limit': 130, 'in-zone': 'PT4M' },
    { 'index': 2, 'lower-limit': 130, 'upper-limit': 148, 'in-zone': 'PT20M10.5S' },
    { 'index': 3, 'lower-limit': 148, 'upper-limit': 167, 'in-zone': 'PT30M' },
    { 'index': 4, 'lower-limit': 167, 'upper-limit': 186, 'in-zone': 'PT3M32S' },
  ],
  'samples': [
    { 'recording-rate': 1, 'sample-type': '0', 'data': '98,101,null,104,105' },
    { 'recording-rate': 1, 'sample-type': 1, 'data': '0.0,8.6,10.44,null,11.02' },
    { 'recording-rate': 1, 'sample-type': '3', 'data': '12.5,12.6,12.8,13,13.1' },
    { 'recording-rate': 1, 'sample-type': 8, 'data': '0,168,170,172,null' },
    { 'recording-rate': 1, 'sample-type': '10', 'data': '0,2.4,5.3,8.2,11.3' },
    { 'recording-rate': null, 'sample-type': 11, 'data': '612,598,null,605' },
  ],
  'route': [
    { latitude: 60.21982833, longitude: 25.13925, time: 'PT0S', satellites: 7, fix: 1 },
    { latitude: 60.21984, longitude: 25.13931, time: 'PT1S', satellites: 7, fix: 1 },
    { latitude: 0, longitude: 0, time: 'PT2S', satellites: 0, fix: 0 },
    { latitude: 60.2199, longitude: 25.1394, time: 'PT210.026S', satellites: 9, fix: 1 },
    { latitude: 95, longitude: 25.1394, time: 'PT211S' },
  ],
} as unknown as WireExercise

const parse = <T>(text: string | null) => JSON.parse(text!) as T

test.group('Polar mappers | exercise samples, zones and route', () => {
  test('maps a detail to exactly the exercise_samples columns', ({ assert }) => {
    const row = mapExerciseSamples(DETAIL)!
    assert.includeMembers([...ExerciseSample.$columns], Object.keys(row))
    assert.containsSubset(row, {
      polarExerciseId: 'aQlC83xZ',
      startTime: '2026-08-17 17:30:00',
      startDate: '2026-08-17',
      startTimeUtcOffset: 120,
      routePointCount: 3,
    })
  })

  test('sample-type as a string or an integer, null entries kept as gaps, RR without a rate', ({ assert }) => {
    const series = parse<StoredSampleSeries[]>(mapExerciseSamples(DETAIL)!.samples)
    assert.deepEqual(
      series.map((s) => s.sample_type),
      [0, 1, 3, 8, 10, 11]
    )
    assert.deepEqual(series[0], { sample_type: 0, recording_rate_seconds: 1, data: [98, 101, null, 104, 105] })
    assert.deepEqual(series[1].data, [0, 8.6, 10.44, null, 11.02])
    assert.deepEqual(series[5], { sample_type: 11, recording_rate_seconds: null, data: [612, 598, null, 605] })
  })

  test('zones keep Polar’s 0-based index and kebab-case limits as numbers', ({ assert }) => {
    const zones = parse<StoredZone[]>(mapExerciseSamples(DETAIL)!.heartRateZones)
    assert.lengthOf(zones, 5)
    assert.deepEqual(zones[0], { index: 0, lower_limit: 93, upper_limit: 111, in_zone_seconds: 150 })
    assert.deepEqual(zones[2], { index: 2, lower_limit: 130, upper_limit: 148, in_zone_seconds: 1210.5 })
  })

  test('route times from ISO durations; (0, 0) and out-of-range points dropped', ({ assert }) => {
    const route = parse<StoredRoute>(mapExerciseSamples(DETAIL)!.route)
    assert.deepEqual(route, {
      time_seconds: [0, 1, 210.026],
      latitude: [60.21982833, 60.21984, 60.2199],
      longitude: [25.13925, 25.13931, 25.1394],
      satellites: [7, 7, 9],
      fix: [1, 1, 1],
    })
  })

  test('a summary without samples, zones or route still gives a row, with nulls', ({ assert }) => {
    const { samples, heart_rate_zones: zones, route, ...summary } = DETAIL as Record<string, unknown>
    void samples
    void zones
    void route
    const row = mapExerciseSamples(summary as WireExercise)!
    assert.containsSubset(row, { polarExerciseId: 'aQlC83xZ', samples: null, heartRateZones: null, route: null, routePointCount: 0 })
  })

  test('malformed streams are skipped, garbage values become gaps', ({ assert }) => {
    const row = mapExerciseSamples({
      ...DETAIL,
      samples: [
        { 'recording-rate': 5, 'sample-type': 'heart', 'data': '1,2' },
        { 'recording-rate': 5, 'sample-type': '0' },
        { 'recording-rate': 5, 'sample-type': '0', 'data': '' },
        { 'recording-rate': 0, 'sample-type': ' 4 ', 'data': '250,abc, 260 ,,1e2' },
        'not a sample',
      ],
      route: 'nope',
      heart_rate_zones: [],
    } as unknown as WireExercise)!
    assert.deepEqual(parse(row.samples), [{ sample_type: 4, recording_rate_seconds: null, data: [250, null, 260, null, 100] }])
    assert.isNull(row.route)
    assert.isNull(row.heartRateZones)
  })

  test('no id or no start time: no row; a list keeps one row per id', ({ assert }) => {
    assert.isNull(mapExerciseSamples({ ...DETAIL, id: undefined } as WireExercise))
    assert.isNull(mapExerciseSamples({ ...DETAIL, start_time: 'yesterday' } as WireExercise))
    assert.isNull(mapExerciseSamples(null as unknown as WireExercise))
    assert.lengthOf(mapExerciseSamplesList([DETAIL, DETAIL, { ...DETAIL, id: 'other' } as WireExercise]), 2)
  })

  test('the sample-type table names ids 0…11', ({ assert }) => {
    assert.deepEqual(
      SAMPLE_TYPES.map((type) => type.name),
      [
        'heart_rate',
        'speed',
        'cadence',
        'altitude',
        'power',
        'power_pedaling_index',
        'power_lr_balance',
        'air_pressure',
        'running_cadence',
        'temperature',
        'distance',
        'rr_interval',
      ]
    )
  })
})
