import { inject } from '@adonisjs/core'
import PhysicalInfo from '#models/physical_info'
import { UserService } from '#services/user_service'

/** The user's physical settings: the current version and every version kept. */
export interface PhysicalInfoHistory {
  /** The newest version, null when Polar never sent one. */
  latest: PhysicalInfo | null
  /** Every version, newest first (`latest` included): one per change Polar stamped. */
  history: PhysicalInfo[]
}

@inject()
export class PhysicalInfoService {
  constructor(protected users: UserService) {}

  /**
   * Every stored version of the user's physical information, newest `measuredAt` first. Not
   * windowed by `days`: a version is kept per change of the settings, so the history stays small
   * and the current settings may date from long ago. Throws UnknownUserException (404).
   */
  async history(userId: string): Promise<PhysicalInfoHistory> {
    const user = await this.users.refOrFail(userId)
    const history = await PhysicalInfo.query().where('userId', user.id).orderBy('measuredAt', 'desc')
    return { latest: history[0] ?? null, history }
  }
}
