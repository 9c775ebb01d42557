import { inject } from '@adonisjs/core'
import type { Readable } from 'node:stream'
import type Exercise from '#models/exercise'
import type { ExerciseFileHeader } from '#services/export/exercise_file_header'
import { gpxDocument } from '#services/export/gpx_writer'
import { tcxDocument } from '#services/export/tcx_writer'
import { xmlStream } from '#services/export/xml'
import { ExerciseSampleService } from '#services/records/exercise_sample_service'
import { timelinePoints } from '#services/records/exercise_track'

/** A GPX or TCX file ready to stream. */
export interface ExerciseFile {
  filename: string
  stream: Readable
}

/**
 * GPX 1.1 and TCX v2 files of a user's exercise, streamed fragment by fragment. The lookups run
 * before streaming starts, so an unknown user, exercise or route is still a 404 problem.
 */
@inject()
export class ExerciseFileService {
  constructor(protected samples: ExerciseSampleService) {}

  /** The route as GPX; NotFoundException (404) when the exercise has no route. */
  async gpx(userId: string, id: number): Promise<ExerciseFile> {
    const { exercise, startUtc, points } = await this.samples.route(userId, id)
    return { filename: fileName(exercise, 'gpx'), stream: xmlStream(gpxDocument(headerOf(exercise, startUtc), points)) }
  }

  /**
   * The exercise as TCX: route points with their samples, or the sample timeline without positions
   * for an indoor session, or a lap without a track when nothing but the summary is stored.
   */
  async tcx(userId: string, id: number): Promise<ExerciseFile> {
    const { exercise, streams, startUtc, startUtcMs } = await this.samples.find(userId, id)
    const points = streams ? timelinePoints(streams, startUtcMs) : []
    return { filename: fileName(exercise, 'tcx'), stream: xmlStream(tcxDocument(headerOf(exercise, startUtc), points)) }
  }
}

/** `exercise_<id>_<local start date>.<ext>`: only characters that need no quoting in a header. */
function fileName(exercise: Exercise, extension: string): string {
  return `exercise_${exercise.id}_${exercise.startDate}.${extension}`
}

function headerOf(exercise: Exercise, startUtc: string): ExerciseFileHeader {
  return {
    id: exercise.id,
    polarExerciseId: exercise.polarExerciseId,
    sport: exercise.sport,
    detailedSportInfo: exercise.detailedSportInfo,
    device: exercise.device,
    localStart: exercise.startTime,
    startUtc,
    durationSeconds: exercise.durationSeconds,
    distanceMeters: exercise.distanceMeters,
    calories: exercise.calories,
    averageHeartRate: exercise.averageHeartRate,
    maxHeartRate: exercise.maxHeartRate,
  }
}
