import { Exception } from '@adonisjs/core/exceptions'

/** A valid pattern name that has not been detected for the user yet. */
export default class PatternNotFoundException extends Exception {
  static status = 404
  static code = 'E_PATTERN_NOT_FOUND'

  constructor(patternName: string) {
    super(
      `Pattern '${patternName}' has not been detected for this user yet: patterns are analysed after ` +
        `each sync that stores data or by POST /patterns/detect.`
    )
  }
}
