import { inject } from '@adonisjs/core'
import { UserService } from '#services/user_service'
import { SeriesLoader, type DataDays } from '#services/analytics/series_loader'
import {
  STATUS_FEATURES,
  statusRecommendations,
  unlockProgress,
  type StatusFeature,
  type UnlockProgress,
} from '#services/analytics/feature_unlocks'

/** The analytics status record before serialisation. */
export interface AnalyticsStatus {
  userId: string
  dataDays: DataDays
  minDataDays: number
  featuresAvailable: Record<StatusFeature, boolean>
  unlockProgress: Record<StatusFeature, UnlockProgress>
  recommendations: string[]
}

/**
 * GET /analytics/status (DESIGN §4): days with data per source over all history;
 * `min_data_days` is the minimum over the sources that have any data (0 when none), so a user
 * without a cardio-load capable device is not held at 0 forever.
 */
@inject()
export class AnalyticsStatusService {
  constructor(
    protected users: UserService,
    protected loader: SeriesLoader
  ) {}

  async status(externalId: string): Promise<AnalyticsStatus> {
    const user = await this.users.refOrFail(externalId)
    const dataDays = await this.loader.dataDays(user.id)
    const present = Object.values(dataDays).filter((d) => d > 0)
    const minDataDays = present.length === 0 ? 0 : Math.min(...present)
    const featuresAvailable = {} as Record<StatusFeature, boolean>
    const progress = {} as Record<StatusFeature, UnlockProgress>
    for (const f of STATUS_FEATURES) {
      progress[f.key] = unlockProgress(minDataDays, f.days)
      featuresAvailable[f.key] = progress[f.key].unlocked
    }
    return {
      userId: user.externalId,
      dataDays,
      minDataDays,
      featuresAvailable,
      unlockProgress: progress,
      recommendations: statusRecommendations({ ...dataDays }, minDataDays),
    }
  }
}
