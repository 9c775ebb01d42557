import { Exception } from '@adonisjs/core/exceptions'
import { METRIC_NAMES } from '#services/analytics/metrics'

/** A metric name that is not one of the five baseline metrics: 404 listing the valid names. */
export default class UnknownMetricException extends Exception {
  static status = 404
  static code = 'E_UNKNOWN_METRIC'

  /** Rendered into the problem body by the handler. */
  problemExtensions = { valid_names: [...METRIC_NAMES] }

  constructor(name: string) {
    super(`Unknown metric '${name}'. Valid metric names: ${METRIC_NAMES.join(', ')}.`)
  }
}
