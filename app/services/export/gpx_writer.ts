import {
  cadenceOf,
  exerciseDescription,
  exerciseTitle,
  integerIn,
  tcxSport,
  type ExerciseFileHeader,
} from '#services/export/exercise_file_header'
import { decimal, escapeAttribute, textElement } from '#services/export/xml'
import type { TrackPoint } from '#services/records/exercise_track'

const GPX_NS = 'http://www.topografix.com/GPX/1/1'
const TPX_NS = 'http://www.garmin.com/xmlschemas/TrackPointExtension/v1'
const SCHEMA_LOCATIONS = [
  GPX_NS,
  'http://www.topografix.com/GPX/1/1/gpx.xsd',
  TPX_NS,
  'http://www8.garmin.com/xmlschemas/TrackPointExtensionv1.xsd',
].join(' ')

/**
 * A GPX 1.1 document of an exercise's route, fragment by fragment: one `trk` with one `trkseg`
 * holding one `trkpt` per route point (lat/lon, `ele` from the altitude samples, UTC `time`,
 * `sat`), and the heart rate, cadence and air temperature of that moment in Garmin's
 * TrackPointExtension v1 (`gpxtpx:atemp`, `hr`, `cad`), the extension Strava and Garmin Connect read.
 */
export function* gpxDocument(header: ExerciseFileHeader, points: TrackPoint[]): Generator<string> {
  const sport = tcxSport(header)
  yield '<?xml version="1.0" encoding="UTF-8"?>\n'
  yield `<gpx version="1.1" creator="HRVault" xmlns="${GPX_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:gpxtpx="${TPX_NS}" xsi:schemaLocation="${escapeAttribute(SCHEMA_LOCATIONS)}">\n`
  yield ` <metadata>${textElement('name', exerciseTitle(header))}${textElement('desc', exerciseDescription(header))}${textElement('time', header.startUtc)}</metadata>\n`
  yield ` <trk>${textElement('name', exerciseTitle(header))}${textElement('type', sport === 'Running' ? 'running' : sport === 'Biking' ? 'cycling' : (header.detailedSportInfo ?? header.sport ?? 'other').toLowerCase())}\n  <trkseg>\n`
  for (const point of points) yield trackPoint(point)
  yield '  </trkseg>\n </trk>\n</gpx>\n'
}

function trackPoint(point: TrackPoint): string {
  let out = `   <trkpt lat="${decimal(point.latitude!)}" lon="${decimal(point.longitude!)}">`
  if (point.altitude !== null) out += `<ele>${decimal(point.altitude, 2)}</ele>`
  if (point.time !== null) out += `<time>${point.time}</time>`
  if (point.satellites !== null && point.satellites >= 0) out += `<sat>${point.satellites}</sat>`
  const temperature = point.temperature === null ? '' : `<gpxtpx:atemp>${decimal(point.temperature, 1)}</gpxtpx:atemp>`
  const hr = integerIn(point.heartRate, 1, 255)
  const cadence = cadenceOf(point)
  const extension = `${temperature}${hr === null ? '' : `<gpxtpx:hr>${hr}</gpxtpx:hr>`}${cadence === null ? '' : `<gpxtpx:cad>${cadence}</gpxtpx:cad>`}`
  if (extension !== '') out += `<extensions><gpxtpx:TrackPointExtension>${extension}</gpxtpx:TrackPointExtension></extensions>`
  return `${out}</trkpt>\n`
}
