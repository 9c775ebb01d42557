import { Spo2TestSchema } from '#database/schema'

/** A blood-oxygen test; `testTimestamp` (epoch ms) is the natural key. */
export default class Spo2Test extends Spo2TestSchema {
  static table = 'spo2_tests'
}
