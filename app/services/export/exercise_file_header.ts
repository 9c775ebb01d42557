import type { TrackPoint } from '#services/records/exercise_track'

/** What the GPX and TCX writers need to know about the exercise besides its points. */
export interface ExerciseFileHeader {
  /** HRVault's id (file names) and Polar's. */
  id: number
  polarExerciseId: string
  sport: string | null
  detailedSportInfo: string | null
  device: string | null
  /** Local start `YYYY-MM-DD HH:MM:SS` (titles) and the UTC instant (file times). */
  localStart: string
  startUtc: string
  durationSeconds: number | null
  distanceMeters: number | null
  calories: number | null
  averageHeartRate: number | null
  maxHeartRate: number | null
}

/** The three sports a TCX activity can have, from Polar's coarse and detailed sport names. */
export function tcxSport(header: Pick<ExerciseFileHeader, 'sport' | 'detailedSportInfo'>): 'Running' | 'Biking' | 'Other' {
  const names = `${header.sport ?? ''} ${header.detailedSportInfo ?? ''}`.toUpperCase()
  if (/RUNNING/.test(names)) return 'Running'
  if (/CYCLING|BIKING/.test(names)) return 'Biking'
  return 'Other'
}

/** A title such as `Running 2026-08-17 17:30` (detailed sport, local start). */
export function exerciseTitle(header: ExerciseFileHeader): string {
  const sport = (header.detailedSportInfo ?? header.sport ?? 'Exercise').toLowerCase().replaceAll('_', ' ')
  return `${sport.charAt(0).toUpperCase()}${sport.slice(1)} ${header.localStart.slice(0, 16)}`
}

/** One line about where the data came from (GPX `desc`, TCX `Notes`). */
export function exerciseDescription(header: ExerciseFileHeader): string {
  const parts = [`Polar exercise ${header.polarExerciseId}`, header.detailedSportInfo ?? header.sport, header.device]
  return `${parts.filter((part) => part).join(', ')} (exported by HRVault)`
}

/** An integer in `min`…`max`, else null (XML types such as positiveByte reject anything else). */
export function integerIn(value: number | null, min: number, max: number): number | null {
  if (value === null) return null
  const n = Math.round(value)
  return n >= min && n <= max ? n : null
}

/**
 * Running cadence as one foot's strides per minute (half of Polar's steps per minute), the unit
 * Garmin's `cad` / `RunCadence` fields carry; bike cadence (rpm) as it is.
 */
export function cadenceOf(point: TrackPoint): number | null {
  if (point.cadence !== null) return integerIn(point.cadence, 0, 254)
  return point.runningCadence === null ? null : integerIn(point.runningCadence / 2, 0, 254)
}
