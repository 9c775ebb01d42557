import { CardioLoadSchema } from '#database/schema'

/** Daily cardio load; -1.0 sentinels are stored as null. */
export default class CardioLoad extends CardioLoadSchema {
  static table = 'cardio_loads'
}
