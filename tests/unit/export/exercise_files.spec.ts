import { test } from '@japa/runner'
import type { ExerciseFileHeader } from '#services/export/exercise_file_header'
import { gpxDocument } from '#services/export/gpx_writer'
import { tcxDocument } from '#services/export/tcx_writer'
import { decimal, escapeAttribute, escapeText, xmlStream } from '#services/export/xml'
import { mapExerciseSamples } from '#services/polar/mappers/exercise_samples_mapper'
import type { WireExercise } from '#services/polar/wire_types'
import { routePoints, streamsOf, timelinePoints, utcStartMs } from '#services/records/exercise_track'
import { xsdErrors } from '#tests/helpers/xsd'

const START = '2026-08-17 17:30:00'

/** A ride as the detail answers it: every stream at 1 s, RR intervals, a route with a gap in time. */
const RIDE = {
  'id': 'rIdE1',
  'start_time': '2026-08-17T17:30:00',
  'start_time_utc_offset': 120,
  'duration': 'PT5S',
  'sport': 'CYCLING',
  'detailed_sport_info': 'ROAD_BIKING',
  'samples': [
    { 'recording-rate': 1, 'sample-type': 0, 'data': '120,122,null,0,300' },
    { 'recording-rate': 1, 'sample-type': '1', 'data': '20.5,25.2,null,30,31' },
    { 'recording-rate': 1, 'sample-type': '2', 'data': '85,86,null,300,90' },
    { 'recording-rate': 1, 'sample-type': '3', 'data': '101.25,101.5,null,102,102.5' },
    { 'recording-rate': 1, 'sample-type': '4', 'data': '180,210,null,250,-5' },
    { 'recording-rate': 1, 'sample-type': '9', 'data': '18.4,18.4,null,18.5,18.5' },
    { 'recording-rate': 1, 'sample-type': '10', 'data': '0,6.9,13.9,22.2,30.8' },
    { 'recording-rate': null, 'sample-type': '11', 'data': '500,498,null' },
  ],
  'route': [
    { latitude: 60.1, longitude: 179.9999999, time: 'PT0S', satellites: 8, fix: 1 },
    { latitude: -0.00000001, longitude: 24.95, time: 'PT1S', satellites: 8, fix: 1 },
    { latitude: 60.1002, longitude: 24.9503, time: 'PT2.5S', satellites: 7, fix: 1 },
    { latitude: 60.1003, longitude: 24.9504 },
    { latitude: 60.1004, longitude: 24.9505, time: 'PT4S', satellites: 9, fix: 1 },
  ],
} as unknown as WireExercise

const header = (overrides: Partial<ExerciseFileHeader> = {}): ExerciseFileHeader => ({
  id: 7,
  polarExerciseId: 'rIdE1',
  sport: 'CYCLING',
  detailedSportInfo: 'ROAD_BIKING',
  device: 'Polar Vantage V3',
  localStart: START,
  startUtc: '2026-08-17T15:30:00Z',
  durationSeconds: 5,
  distanceMeters: 30.8,
  calories: 12,
  averageHeartRate: 130,
  maxHeartRate: 160,
  ...overrides,
})

const streams = () => streamsOf(mapExerciseSamples(RIDE)!)
const startMs = utcStartMs(START, 120)
const text = (fragments: Iterable<string>) => [...fragments].join('')

test.group('Export | XML helpers', () => {
  test('text and attribute escaping, characters XML cannot carry dropped', ({ assert }) => {
    assert.equal(escapeText('a & b < c > d "e" \'f\''), 'a &amp; b &lt; c &gt; d "e" \'f\'')
    assert.equal(escapeAttribute('a & "b" \'c\' <d>\n'), 'a &amp; &quot;b&quot; &apos;c&apos; &lt;d&gt;&#10;')
    assert.equal(escapeText('bell\u0007 nul\u0000 ok\t\n é 🙂 \uD800x'), 'bell nul ok\t\n é 🙂 x')
  })

  test('numbers in decimal form, never with an exponent', ({ assert }) => {
    assert.equal(decimal(-0.00000001), '-0.00000001')
    assert.equal(decimal(1e-12), '0')
    assert.equal(decimal(60.21982833), '60.21982833')
    assert.equal(decimal(12, 2), '12')
    assert.equal(decimal(101.256, 2), '101.26')
    assert.throws(() => decimal(Number.NaN))
  })

  test('a stream of fragments comes out as the same bytes, in chunks', async ({ assert }) => {
    const fragments = Array.from({ length: 5000 }, (_, i) => `<p n="${i}">é</p>`)
    const chunks: Buffer[] = []
    for await (const chunk of xmlStream(fragments, 1024)) chunks.push(chunk as Buffer)
    assert.isAbove(chunks.length, 10)
    assert.equal(Buffer.concat(chunks).toString('utf8'), fragments.join(''))
  })
})

test.group('Export | track points', () => {
  test('route points carry the samples of their time, UTC times from the local start and offset', ({ assert }) => {
    const points = routePoints(streams(), startMs)
    assert.lengthOf(points, 5)
    assert.containsSubset(points[0], {
      offsetSeconds: 0,
      time: '2026-08-17T15:30:00Z',
      latitude: 60.1,
      longitude: 179.9999999,
      satellites: 8,
      altitude: 101.25,
      heartRate: 120,
      cadence: 85,
      speed: 20.5,
      power: 180,
      temperature: 18.4,
      distance: 0,
    })
    // 2.5 s reads the sample nearest in time (index 3), a point without a time reads nothing.
    assert.containsSubset(points[2], { time: '2026-08-17T15:30:02.500Z', heartRate: 0, altitude: 102 })
    assert.containsSubset(points[3], { time: null, heartRate: null, altitude: null })
  })

  test('without a route the TCX timeline is the longest timed stream, without positions', ({ assert }) => {
    const { samples, zones } = streams()
    const points = timelinePoints({ samples, zones, route: null }, startMs)
    assert.lengthOf(points, 5)
    assert.deepEqual(
      points.map((p) => p.time),
      ['2026-08-17T15:30:00Z', '2026-08-17T15:30:01Z', '2026-08-17T15:30:02Z', '2026-08-17T15:30:03Z', '2026-08-17T15:30:04Z']
    )
    assert.isTrue(points.every((p) => p.latitude === null))
    assert.deepEqual(timelinePoints({ samples: [], zones: [], route: null }, startMs), [])
  })
})

test.group('Export | GPX and TCX against the published XSDs', () => {
  test('the schemas do reject what they forbid (the validation is not vacuous)', async ({ assert }) => {
    const gpx = text(gpxDocument(header(), routePoints(streams(), startMs)))
    assert.isNotEmpty(await xsdErrors(gpx.replace('lat="60.1"', 'lat="91"'), 'gpx'))
    assert.isNotEmpty(await xsdErrors(gpx.replace(/<ele>/, '<ele>1e3</ele><ele>'), 'gpx'))
    const tcx = text(tcxDocument(header(), timelinePoints(streams(), startMs)))
    assert.isNotEmpty(await xsdErrors(tcx.replace('<TriggerMethod>Manual</TriggerMethod>', ''), 'tcx'))
    assert.isNotEmpty(await xsdErrors(tcx.replace('Sport="Biking"', 'Sport="Cycling"'), 'tcx'))
  })

  test('the GPX of a route is valid GPX 1.1 with one trkpt per route point', async ({ assert }) => {
    const gpx = text(gpxDocument(header(), routePoints(streams(), startMs)))
    assert.deepEqual(await xsdErrors(gpx, 'gpx'), [])
    assert.lengthOf(gpx.match(/<trkpt /g)!, 5)
    assert.include(gpx, '<trkpt lat="-0.00000001" lon="24.95">')
    assert.include(gpx, '<gpxtpx:TrackPointExtension><gpxtpx:atemp>18.4</gpxtpx:atemp><gpxtpx:hr>120</gpxtpx:hr><gpxtpx:cad>85</gpxtpx:cad>')
    // Out-of-range values stay out: heart rate 0 and 300, cadence 300.
    assert.notInclude(gpx, '<gpxtpx:hr>0<')
    assert.notInclude(gpx, '<gpxtpx:hr>300<')
    assert.notInclude(gpx, '<gpxtpx:cad>300<')
  })

  test('the TCX is valid TCX v2: Biking, one lap, a trackpoint per timed route point', async ({ assert }) => {
    const tcx = text(tcxDocument(header(), timelinePoints(streams(), startMs)))
    assert.deepEqual(await xsdErrors(tcx, 'tcx'), [])
    assert.include(tcx, '<Activity Sport="Biking">')
    assert.include(tcx, '<Id>2026-08-17T15:30:00Z</Id>')
    assert.include(tcx, '<TotalTimeSeconds>5</TotalTimeSeconds>')
    assert.include(tcx, '<DistanceMeters>30.8</DistanceMeters>')
    assert.include(tcx, '<Calories>12</Calories>')
    assert.include(tcx, '<Intensity>Active</Intensity>')
    assert.include(tcx, '<TriggerMethod>Manual</TriggerMethod>')
    assert.lengthOf(tcx.match(/<Trackpoint>/g)!, 4)
    assert.include(tcx, '<Cadence>85</Cadence>')
    assert.include(tcx, '<ns3:Watts>180</ns3:Watts>')
    assert.include(tcx, '<MaximumSpeed>8.611</MaximumSpeed>')
  })

  test('running: Sport Running, running cadence as strides per minute in RunCadence', async ({ assert }) => {
    const run = {
      ...RIDE,
      sport: 'RUNNING',
      detailed_sport_info: 'TRAIL_RUNNING',
      samples: [
        { 'recording-rate': 2, 'sample-type': '0', 'data': '140,141,142' },
        { 'recording-rate': 2, 'sample-type': '8', 'data': '170,172,null' },
      ],
    } as unknown as WireExercise
    const runStreams = streamsOf(mapExerciseSamples(run)!)
    const runHeader = header({ sport: 'RUNNING', detailedSportInfo: 'TRAIL_RUNNING' })
    const tcx = text(tcxDocument(runHeader, timelinePoints(runStreams, startMs)))
    assert.deepEqual(await xsdErrors(tcx, 'tcx'), [])
    assert.include(tcx, '<Activity Sport="Running">')
    assert.include(tcx, '<ns3:RunCadence>85</ns3:RunCadence>')
    assert.notInclude(tcx, '<Cadence>')
    const gpx = text(gpxDocument(runHeader, routePoints(runStreams, startMs)))
    assert.deepEqual(await xsdErrors(gpx, 'gpx'), [])
    assert.include(gpx, '<type>running</type>')
    assert.include(gpx, '<gpxtpx:cad>85</gpxtpx:cad>')
  })

  test('markup in names is escaped and the files stay valid', async ({ assert }) => {
    const odd = header({
      sport: 'OTHER',
      detailedSportInfo: 'A&B <script>"x"</script>',
      device: "Polar 'Grit' & <Co>",
      polarExerciseId: ']]>&amp;',
    })
    const gpx = text(gpxDocument(odd, routePoints(streams(), startMs)))
    const tcx = text(tcxDocument(odd, timelinePoints(streams(), startMs)))
    assert.deepEqual(await xsdErrors(gpx, 'gpx'), [])
    assert.deepEqual(await xsdErrors(tcx, 'tcx'), [])
    assert.include(tcx, '<Activity Sport="Other">')
    assert.include(tcx, 'Polar exercise ]]&gt;&amp;amp;, A&amp;B &lt;script&gt;"x"&lt;/script&gt;, Polar \'Grit\' &amp; &lt;Co&gt;')
    assert.notInclude(gpx, '<script>')
  })

  test('an exercise with nothing but its summary still gives a valid TCX (a lap without a track)', async ({ assert }) => {
    const bare = header({ durationSeconds: null, distanceMeters: null, calories: null, averageHeartRate: null, maxHeartRate: 0 })
    const tcx = text(tcxDocument(bare, []))
    assert.deepEqual(await xsdErrors(tcx, 'tcx'), [])
    assert.notInclude(tcx, '<Track>')
    assert.include(tcx, '<TotalTimeSeconds>0</TotalTimeSeconds>')
    assert.notInclude(tcx, 'HeartRateBpm')
  })

  test('a long track (3 h at 1 s) stays valid and is written in chunks', async ({ assert }) => {
    const count = 3 * 3600
    const long = {
      ...RIDE,
      samples: [{ 'recording-rate': 1, 'sample-type': '0', 'data': Array.from({ length: count }, (_, i) => 120 + (i % 40)).join(',') }],
      route: Array.from({ length: count }, (_, i) => ({ latitude: 60 + i * 1e-5, longitude: 25 + i * 1e-5, time: `PT${i}S` })),
    } as unknown as WireExercise
    const longStreams = streamsOf(mapExerciseSamples(long)!)
    const chunks: Buffer[] = []
    for await (const chunk of xmlStream(gpxDocument(header(), routePoints(longStreams, startMs)))) chunks.push(chunk as Buffer)
    assert.isAbove(chunks.length, 20)
    const gpx = Buffer.concat(chunks).toString('utf8')
    assert.deepEqual(await xsdErrors(gpx, 'gpx'), [])
    assert.lengthOf(gpx.match(/<trkpt /g)!, count)
  }).timeout(60_000)
})
