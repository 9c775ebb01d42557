import { BaselineSchema } from '#database/schema'

/** A personal baseline of one metric (DESIGN §4 analytics definitions). */
export default class Baseline extends BaselineSchema {
  static table = 'baselines'
}
