import { inject } from '@adonisjs/core'
import NotFoundException from '#exceptions/not_found_exception'
import type Exercise from '#models/exercise'
import ExerciseSample from '#models/exercise_sample'
import { ExerciseService } from '#services/records/exercise_service'
import {
  isoUtc,
  routePoints,
  streamsOf,
  utcStartMs,
  type ExerciseStreams,
  type TrackPoint,
} from '#services/records/exercise_track'

/** An exercise with its stored streams (none when its detail was never fetched with samples). */
export interface ExerciseWithStreams {
  exercise: Exercise
  streams: ExerciseStreams | null
  /** UTC start `…Z`, from the local start and its offset. */
  startUtc: string
  startUtcMs: number
}

/** An exercise with the points of its route. */
export interface ExerciseRoute {
  exercise: Exercise
  startUtc: string
  points: TrackPoint[]
}

/**
 * Sample streams, heart-rate zones and GPS routes of a user's exercises, looked up by HRVault's
 * exercise id like `GET /exercises/{id}` (404 for an unknown user, id or another user's exercise).
 */
@inject()
export class ExerciseSampleService {
  constructor(protected exercises: ExerciseService) {}

  /** The exercise and its streams; `streams` is null when none are stored for it. */
  async find(userId: string, id: number): Promise<ExerciseWithStreams> {
    const exercise = await this.exercises.findById(userId, id)
    const stored = await ExerciseSample.query()
      .where('userId', exercise.userId)
      .where('polarExerciseId', exercise.polarExerciseId)
      .first()
    const startUtcMs = utcStartMs(exercise.startTime, exercise.startTimeUtcOffset)
    return { exercise, streams: stored ? streamsOf(stored) : null, startUtc: isoUtc(startUtcMs), startUtcMs }
  }

  /**
   * The exercise with its stored streams; NotFoundException (404) when none are stored, which is
   * the case for exercises synced before samples were kept that Polar no longer has.
   */
  async samples(userId: string, id: number): Promise<ExerciseWithStreams & { streams: ExerciseStreams }> {
    const found = await this.find(userId, id)
    if (!found.streams) {
      throw new NotFoundException(`No samples are stored for exercise ${id}: its detail was not fetched with samples.`)
    }
    return { ...found, streams: found.streams }
  }

  /** Route points of the exercise; NotFoundException (404) when it has no GPS route. */
  async route(userId: string, id: number): Promise<ExerciseRoute> {
    const { exercise, streams, startUtc, startUtcMs } = await this.find(userId, id)
    const points = streams ? routePoints(streams, startUtcMs) : []
    if (points.length === 0) {
      throw new NotFoundException(`Exercise ${id} has no GPS route (an indoor session, or recorded without GPS).`)
    }
    return { exercise, startUtc, points }
  }
}
