import {
  apiKeySecurity,
  dataRouteErrors,
  LOCAL_TIME,
  nullable,
  objectSchema,
  rateLimitHeaders,
  ref,
  userIdParam,
  type JsonSchema,
  type OpenApiModule,
} from '#openapi/components'
import { SAMPLE_TYPES } from '#services/polar/mappers/exercise_samples_mapper'

/**
 * Routes of one exercise's samples, zones and GPS route: JSON, GeoJSON, and GPX 1.1 /
 * TCX v2 files for Strava, Garmin Connect and GPX viewers.
 */

const UTC_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{3})?Z$'

const exerciseIdParam = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'HRVault exercise id (the `id` of `/exercises`); a non-integer is a 422.',
  schema: { type: 'integer', minimum: 1 },
}

const SAMPLE_TYPE_LIST = SAMPLE_TYPES.map((type, id) => `${id} ${type.name} (${type.unit})`).join(', ')

const samplesExample = {
  id: 42,
  polar_exercise_id: 'aQlC83xZ',
  start_time: '2026-08-17 17:30:00',
  start_time_utc_offset_minutes: 120,
  start_time_utc: '2026-08-17T15:30:00Z',
  samples: [
    { sample_type: 0, name: 'heart_rate', unit: 'bpm', recording_rate_seconds: 1, sample_count: 5, data: [98, 101, null, 104, 105] },
    { sample_type: 3, name: 'altitude', unit: 'm', recording_rate_seconds: 1, sample_count: 5, data: [12.5, 12.6, 12.8, 13, 13.1] },
    { sample_type: 11, name: 'rr_interval', unit: 'ms', recording_rate_seconds: null, sample_count: 4, data: [612, 598, null, 605] },
  ],
  heart_rate_zones: [
    { index: 0, lower_limit_bpm: 93, upper_limit_bpm: 111, in_zone_seconds: 150 },
    { index: 1, lower_limit_bpm: 111, upper_limit_bpm: 130, in_zone_seconds: 240 },
  ],
  route_point_count: 3,
}

const routeExample = {
  type: 'Feature',
  geometry: {
    type: 'LineString',
    coordinates: [
      [25.13925, 60.21982833, 12.5],
      [25.13931, 60.21984, 12.6],
      [25.1394, 60.2199, 13.1],
    ],
  },
  properties: {
    id: 42,
    polar_exercise_id: 'aQlC83xZ',
    sport: 'RUNNING',
    detailed_sport_info: 'RUNNING',
    start_time: '2026-08-17 17:30:00',
    start_time_utc: '2026-08-17T15:30:00Z',
    point_count: 3,
    times: ['2026-08-17T15:30:00Z', '2026-08-17T15:30:01Z', '2026-08-17T15:33:30.026Z'],
    time_offsets_seconds: [0, 1, 210.026],
    heart_rates: [98, 101, 105],
  },
}

const position: JsonSchema = {
  type: 'array',
  minItems: 2,
  maxItems: 3,
  items: { type: 'number' },
  description: '[longitude, latitude] or [longitude, latitude, altitude in metres] (WGS84).',
}

export const schemas = {
  ExerciseSamples: objectSchema(
    {
      id: { type: 'integer', description: 'HRVault id of the exercise.' },
      polar_exercise_id: { type: 'string' },
      start_time: { type: 'string', pattern: LOCAL_TIME, description: 'Local start time.' },
      start_time_utc_offset_minutes: nullable('integer', { description: 'Minutes east of UTC.' }),
      start_time_utc: { type: 'string', pattern: UTC_TIME, description: 'Start in UTC (start_time − offset).' },
      samples: {
        type: 'array',
        description: 'The sample streams as Polar sent them, in its order.',
        items: objectSchema({
          sample_type: { type: 'integer', minimum: 0, description: `Polar's sample type: ${SAMPLE_TYPE_LIST}.` },
          name: nullable('string', { description: 'Name of the type; null for an undocumented id.' }),
          unit: nullable('string'),
          recording_rate_seconds: nullable('number', {
            description: 'Seconds between samples: data[i] was recorded i × rate after the start. Null for RR intervals, whose values are consecutive beat-to-beat intervals.',
          }),
          sample_count: { type: 'integer', minimum: 0 },
          data: { type: 'array', items: { type: ['number', 'null'] }, description: 'Values; null where the sensor had none.' },
        }),
      },
      heart_rate_zones: {
        type: 'array',
        description: 'Heart-rate zones with Polar’s index as sent (live answers count from 0, the spec’s example from 1).',
        items: objectSchema({
          index: nullable('integer'),
          lower_limit_bpm: nullable('integer'),
          upper_limit_bpm: nullable('integer'),
          in_zone_seconds: nullable('number'),
        }),
      },
      route_point_count: { type: 'integer', minimum: 0, description: 'Points of the GPS route (0: none).' },
    },
    'Sample streams, heart-rate zones and route size of one exercise.'
  ),
  ExerciseRoute: objectSchema(
    {
      type: { type: 'string', const: 'Feature' },
      geometry: {
        type: 'object',
        required: ['type', 'coordinates'],
        description: 'A LineString of the route points (a Point when the route has one point).',
        properties: {
          type: { type: 'string', enum: ['LineString', 'Point'] },
          coordinates: { oneOf: [{ type: 'array', items: position }, position] },
        },
      },
      properties: objectSchema({
        id: { type: 'integer' },
        polar_exercise_id: { type: 'string' },
        sport: nullable('string'),
        detailed_sport_info: nullable('string'),
        start_time: { type: 'string', pattern: LOCAL_TIME },
        start_time_utc: { type: 'string', pattern: UTC_TIME },
        point_count: { type: 'integer', minimum: 1 },
        times: { type: 'array', items: { type: ['string', 'null'] }, description: 'UTC time of each point (null where Polar gave none).' },
        time_offsets_seconds: { type: 'array', items: { type: ['number', 'null'] }, description: 'Seconds after the start.' },
        heart_rates: { type: 'array', items: { type: ['integer', 'null'] }, description: 'Heart rate at each point, bpm.' },
      }),
    },
    'RFC 7946 GeoJSON Feature of an exercise’s GPS route; altitude is the third coordinate when every point has an altitude sample.'
  ),
}

/** A 200 answer with a body in one media type, an example and the rate-limit headers. */
const answer = (description: string, mediaType: string, schema: JsonSchema, example: unknown, headers = {}) => ({
  description,
  headers: { ...rateLimitHeaders, ...headers },
  content: { [mediaType]: { schema, example } },
})

const attachment = (extension: string) => ({
  'Content-Disposition': {
    schema: { type: 'string' },
    description: `attachment; filename="exercise_{id}_{start date}.${extension}"`,
  },
})

const operation = (operationId: string, summary: string, description: string, ok: unknown) => ({
  get: {
    tags: ['Data'],
    summary,
    description,
    operationId,
    security: apiKeySecurity,
    parameters: [userIdParam, exerciseIdParam],
    responses: { 200: ok, ...dataRouteErrors() },
  },
})

export const paths: OpenApiModule['paths'] = {
  '/api/v1/users/{user_id}/exercises/{id}/samples': operation(
    'getExerciseSamples',
    'Samples and heart-rate zones of one exercise',
    'Every sample stream stored from the exercise detail (heart rate, speed, cadence, altitude, power, temperature, distance, RR intervals …) with its recording rate, and the heart-rate zones. 404 when the exercise is unknown or no samples are stored for it (synced before samples were kept, and no longer at Polar).',
    answer('Samples of the exercise', 'application/json', ref('ExerciseSamples'), samplesExample)
  ),
  '/api/v1/users/{user_id}/exercises/{id}/route': operation(
    'getExerciseRoute',
    'GPS route of one exercise (GeoJSON)',
    'The route as a GeoJSON Feature (`application/geo+json`). 404 when the exercise is unknown or has no route (indoor).',
    answer('The route', 'application/geo+json', ref('ExerciseRoute'), routeExample)
  ),
  '/api/v1/users/{user_id}/exercises/{id}/route.gpx': operation(
    'getExerciseRouteGpx',
    'GPS route of one exercise as GPX 1.1',
    'A GPX 1.1 file (one track, one segment, one trkpt per route point with `ele`, UTC `time`, `sat`, and heart rate, cadence and air temperature in Garmin’s TrackPointExtension v1), streamed as an attachment; valid against the published GPX 1.1 XSD. Running cadence is written as strides per minute (Garmin’s unit). 404 when the exercise is unknown or has no route.',
    answer(
      'route.gpx',
      'application/gpx+xml',
      { type: 'string' },
      '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="HRVault" xmlns="http://www.topografix.com/GPX/1/1" …>…</gpx>\n',
      attachment('gpx')
    )
  ),
  '/api/v1/users/{user_id}/exercises/{id}.tcx': operation(
    'getExerciseTcx',
    'One exercise as TCX v2',
    'A Training Center Database v2 file: one Activity (Sport Running, Biking or Other) with one Lap (TotalTimeSeconds, DistanceMeters, MaximumSpeed, Calories, average and maximum heart rate, Intensity, TriggerMethod) and a Track of Trackpoints (Time, Position, AltitudeMeters, DistanceMeters, HeartRateBpm, Cadence; speed, running cadence and power in ActivityExtension v2), streamed as an attachment; valid against TrainingCenterDatabasev2.xsd. Indoor exercises get Trackpoints without Position; an exercise without stored samples gets a Lap without a Track. 404 when the exercise is unknown.',
    answer(
      'exercise.tcx',
      'application/vnd.garmin.tcx+xml',
      { type: 'string' },
      '<?xml version="1.0" encoding="UTF-8"?>\n<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" …>…</TrainingCenterDatabase>\n',
      attachment('tcx')
    )
  ),
}
