import { inject } from '@adonisjs/core'
import Exercise from '#models/exercise'
import NotFoundException from '#exceptions/not_found_exception'
import { RecordWindowService } from '#services/records/record_window'
import { UserService } from '#services/user_service'

/** Columns of the list record: zones and Training Load Pro stay in the database. */
const LIST_COLUMNS = [
  'id',
  'polarExerciseId',
  'startTime',
  'sport',
  'durationSeconds',
  'distanceMeters',
  'calories',
  'averageHeartRate',
  'maxHeartRate',
  'trainingLoad',
]

@inject()
export class ExerciseService {
  constructor(
    protected windows: RecordWindowService,
    protected users: UserService
  ) {}

  /**
   * Sessions whose local start date lies in the last `days` calendar days,
   * newest start first (404 for an unknown user).
   */
  async listRecent(userId: string, days: number): Promise<Exercise[]> {
    const { user, from, to } = await this.windows.open(userId, days)
    return Exercise.query()
      .select(LIST_COLUMNS)
      .where('userId', user.id)
      .whereBetween('startDate', [from, to])
      .orderBy('startTime', 'desc')
      .orderBy('id', 'desc')
  }

  /** One session by our integer id, only among the user's own; NotFoundException (404) otherwise. */
  async findById(userId: string, id: number): Promise<Exercise> {
    const user = await this.users.findOrFail(userId)
    const exercise = await Exercise.query().where('userId', user.id).where('id', id).first()
    if (!exercise) throw new NotFoundException(`No exercise with id ${id}.`)
    return exercise
  }
}
