import { PhysicalInfoSchema } from '#database/schema'

/** One version of the user's physical settings (weight, heart-rate settings, VO2max, sleep goal). */
export default class PhysicalInfo extends PhysicalInfoSchema {
  static table = 'physical_infos'
}
