import { Exception } from '@adonisjs/core/exceptions'

/** A valid metric without a stored baseline (no value in the 90-day window, or never calculated). */
export default class BaselineNotFoundException extends Exception {
  static status = 404
  static code = 'E_BASELINE_NOT_FOUND'

  constructor(metricName: string) {
    super(
      `No baseline for '${metricName}' yet: it needs at least one value in the last 90 days ` +
        `and is calculated after each sync or by POST /baselines/calculate.`
    )
  }
}
