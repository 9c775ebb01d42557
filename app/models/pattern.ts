import { PatternSchema } from '#database/schema'

/** A detected pattern of one user (DESIGN §4); details and metrics stored as JSON. */
export default class Pattern extends PatternSchema {
  static table = 'patterns'
}
