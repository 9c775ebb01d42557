import { inject } from '@adonisjs/core'
import Exercise from '#models/exercise'
import NotFoundException from '#exceptions/not_found_exception'
import { RecordWindowService, type WindowInput } from '#services/records/record_window'
import { listWindow, type ListRequest, type RecordList } from '#services/records/record_list'
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
   * Sessions whose local start date lies in the window, newest start first (404 for an unknown
   * user).
   */
  async list(userId: string, request: ListRequest): Promise<RecordList<Exercise>> {
    const { user, from, to } = await this.windows.open(userId, request.window)
    const query = Exercise.query().select(LIST_COLUMNS).where('userId', user.id)
    return listWindow(query, {
      model: Exercise,
      date: 'startDate',
      order: [{ attribute: 'startTime', direction: 'desc' }],
      range: { from, to },
      page: request.page,
    })
  }

  /** Sessions of the last `days` calendar days (or a range), newest start first: the whole window. */
  async listRecent(userId: string, window: WindowInput): Promise<Exercise[]> {
    return (await this.list(userId, { window, page: null })).rows
  }

  /** One session by our integer id, only among the user's own; NotFoundException (404) otherwise. */
  async findById(userId: string, id: number): Promise<Exercise> {
    const user = await this.users.refOrFail(userId)
    const exercise = await Exercise.query().where('userId', user.id).where('id', id).first()
    if (!exercise) throw new NotFoundException(`No exercise with id ${id}.`)
    return exercise
  }
}
