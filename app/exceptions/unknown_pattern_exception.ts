import { Exception } from '@adonisjs/core/exceptions'
import { PATTERN_NAMES } from '#services/analytics/metrics'

/** A pattern name that is not one of the four patterns: 404 listing the valid names. */
export default class UnknownPatternException extends Exception {
  static status = 404
  static code = 'E_UNKNOWN_PATTERN'

  /** Rendered into the problem body by the handler. */
  problemExtensions = { valid_names: [...PATTERN_NAMES] }

  constructor(name: string) {
    super(`Unknown pattern '${name}'. Valid pattern names: ${PATTERN_NAMES.join(', ')}.`)
  }
}
