import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ActivityService } from '#services/records/activity_service'
import ActivityRecordTransformer from '#transformers/activity_record_transformer'
import ActivityDayTransformer from '#transformers/activity_day_transformer'
import { listRecordsValidator, showActivityValidator } from '#validators/records'

@inject()
export default class ActivityController {
  constructor(protected activity: ActivityService) {}

  /** Daily activity of the last `days` calendar days (default 30), newest first. */
  async index({ request, serialize }: HttpContext) {
    const { params, days = 30 } = await request.validateUsing(listRecordsValidator)
    const activityDays = await this.activity.listRecent(params.user_id, days)
    return serialize(ActivityRecordTransformer.transform(activityDays))
  }

  /** One day by its date, in raw units with samples and zones; 404 when none. */
  async show({ request, serialize }: HttpContext) {
    const { params } = await request.validateUsing(showActivityValidator)
    const day = await this.activity.findByDate(params.user_id, params.date)
    return serialize(ActivityDayTransformer.transform(day))
  }
}
