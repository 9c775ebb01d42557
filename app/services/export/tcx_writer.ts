import {
  cadenceOf,
  exerciseDescription,
  integerIn,
  tcxSport,
  type ExerciseFileHeader,
} from '#services/export/exercise_file_header'
import { decimal, escapeAttribute, textElement } from '#services/export/xml'
import type { TrackPoint } from '#services/records/exercise_track'

const TCX_NS = 'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2'
const AX_NS = 'http://www.garmin.com/xmlschemas/ActivityExtension/v2'
const SCHEMA_LOCATIONS = `${TCX_NS} http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd`

/**
 * A Training Center Database v2 document with one Activity (Sport Running, Biking or Other, from
 * Polar's sport) and one Lap covering the whole exercise (Polar's AccessLink detail has no laps):
 * TotalTimeSeconds, DistanceMeters, MaximumSpeed, Calories, average and maximum heart rate,
 * Intensity Active, TriggerMethod Manual, and a Track of `points` (Time, Position when there is a
 * route, AltitudeMeters, DistanceMeters, HeartRateBpm, Cadence, and speed, running cadence and
 * power in Garmin's ActivityExtension v2). Without points the Lap has no Track, which TCX allows.
 */
export function* tcxDocument(header: ExerciseFileHeader, points: TrackPoint[]): Generator<string> {
  const last = points.at(-1)
  const totalSeconds = header.durationSeconds ?? last?.offsetSeconds ?? 0
  const distance = header.distanceMeters ?? last?.distance ?? 0
  const speeds = points.map((p) => p.speed).filter((v): v is number => v !== null)
  const maxSpeed = speeds.length > 0 ? Math.max(...speeds) / 3.6 : null

  yield '<?xml version="1.0" encoding="UTF-8"?>\n'
  yield `<TrainingCenterDatabase xmlns="${TCX_NS}" xmlns:ns3="${AX_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${escapeAttribute(SCHEMA_LOCATIONS)}">\n`
  yield ` <Activities>\n  <Activity Sport="${tcxSport(header)}">\n   <Id>${header.startUtc}</Id>\n`
  yield `   <Lap StartTime="${header.startUtc}">\n`
  yield `    <TotalTimeSeconds>${decimal(Math.max(0, totalSeconds), 3)}</TotalTimeSeconds>\n`
  yield `    <DistanceMeters>${decimal(Math.max(0, distance), 2)}</DistanceMeters>\n`
  if (maxSpeed !== null) yield `    <MaximumSpeed>${decimal(maxSpeed, 3)}</MaximumSpeed>\n`
  const calories = integerIn(header.calories, 0, 65_535)
  if (calories !== null) yield `    <Calories>${calories}</Calories>\n`
  for (const [name, bpm] of [
    ['AverageHeartRateBpm', header.averageHeartRate],
    ['MaximumHeartRateBpm', header.maxHeartRate],
  ] as const) {
    const element = heartRateElement(name, bpm)
    if (element !== '') yield `    ${element}\n`
  }
  yield '    <Intensity>Active</Intensity>\n    <TriggerMethod>Manual</TriggerMethod>\n'
  if (points.length > 0) {
    yield '    <Track>\n'
    for (const point of points) yield trackpoint(point)
    yield '    </Track>\n'
  }
  yield '   </Lap>\n'
  yield `   ${textElement('Notes', exerciseDescription(header))}\n`
  yield '  </Activity>\n </Activities>\n</TrainingCenterDatabase>\n'
}

/** `<Name><Value>bpm</Value></Name>`, nothing when the value is no positive byte. */
function heartRateElement(name: string, bpm: number | null): string {
  const value = integerIn(bpm, 1, 255)
  return value === null ? '' : `<${name}><Value>${value}</Value></${name}>`
}

function trackpoint(point: TrackPoint): string {
  let out = `     <Trackpoint><Time>${point.time}</Time>`
  if (point.latitude !== null && point.longitude !== null) {
    out += `<Position><LatitudeDegrees>${decimal(point.latitude)}</LatitudeDegrees><LongitudeDegrees>${decimal(point.longitude)}</LongitudeDegrees></Position>`
  }
  if (point.altitude !== null) out += `<AltitudeMeters>${decimal(point.altitude, 2)}</AltitudeMeters>`
  if (point.distance !== null) out += `<DistanceMeters>${decimal(point.distance, 2)}</DistanceMeters>`
  out += heartRateElement('HeartRateBpm', point.heartRate)
  // Bike cadence is TCX's own Cadence; running cadence goes to RunCadence below.
  const bikeCadence = point.cadence === null ? null : cadenceOf(point)
  if (bikeCadence !== null) out += `<Cadence>${bikeCadence}</Cadence>`
  const runCadence = point.cadence === null ? cadenceOf(point) : null
  const extension =
    (point.speed === null || point.speed < 0 ? '' : `<ns3:Speed>${decimal(point.speed / 3.6, 3)}</ns3:Speed>`) +
    (runCadence === null ? '' : `<ns3:RunCadence>${runCadence}</ns3:RunCadence>`) +
    (point.power === null || point.power < 0 ? '' : `<ns3:Watts>${Math.round(point.power)}</ns3:Watts>`)
  if (extension !== '') out += `<Extensions><ns3:TPX>${extension}</ns3:TPX></Extensions>`
  return `${out}</Trackpoint>\n`
}
