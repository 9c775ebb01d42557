import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ExerciseFileService, type ExerciseFile } from '#services/export/exercise_file_service'
import { showExerciseValidator } from '#validators/records'

@inject()
export default class ExerciseFilesController {
  constructor(protected files: ExerciseFileService) {}

  /** route.gpx: the GPS route as GPX 1.1 (attachment); 404 when the exercise has no route. */
  async gpx({ request, response }: HttpContext) {
    const { params } = await request.validateUsing(showExerciseValidator)
    this.send(response, await this.files.gpx(params.user_id, params.id), 'application/gpx+xml')
  }

  /** {id}.tcx: the exercise as TCX v2 (attachment), with or without positions. */
  async tcx({ request, response }: HttpContext) {
    const { params } = await request.validateUsing(showExerciseValidator)
    this.send(response, await this.files.tcx(params.user_id, params.id), 'application/vnd.garmin.tcx+xml')
  }

  protected send(response: HttpContext['response'], file: ExerciseFile, type: string) {
    response.header('Content-Type', `${type}; charset=utf-8`)
    response.header('Content-Disposition', `attachment; filename="${file.filename}"`)
    response.stream(file.stream)
  }
}
