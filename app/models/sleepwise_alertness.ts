import { SleepwiseAlertnessSchema } from '#database/schema'

/** A SleepWise alertness period (local times). */
export default class SleepwiseAlertness extends SleepwiseAlertnessSchema {
  static table = 'sleepwise_alertness'
}
