import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { OverviewService } from '#services/admin/overview_service'
import OverviewTransformer from '#transformers/admin/overview_transformer'
import OverviewUserTransformer from '#transformers/admin/overview_user_transformer'
import { MAX_CUSTOM_RANGE_DAYS, overviewValidator, RANGES } from '#validators/admin'

/** /admin/overview?user=&days= (or &from=&to=): tiles, charts, insights and sync state of one user. */
@inject()
export default class OverviewController {
  constructor(protected overview: OverviewService) {}

  async show({ inertia, request }: HttpContext) {
    const { user: requested, ...query } = await request.validateUsing(overviewValidator)
    const range = this.overview.range(query)
    const { user, users } = await this.overview.pickUser(requested)
    return inertia.render('overview', {
      users: OverviewUserTransformer.transform(users),
      ranges: [...RANGES],
      days: range.days,
      custom: range.custom ? { from: range.from, to: range.to } : null,
      maxCustomDays: MAX_CUSTOM_RANGE_DAYS,
      requestedUser: requested ?? null,
      data: user ? OverviewTransformer.transform(await this.overview.forUser(user, range)) : null,
    })
  }
}
