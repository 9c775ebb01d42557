import { compose } from '@adonisjs/core/helpers'
import { NightlyRechargeSchema } from '#database/schema'
import { RendersSleepLines } from '#models/mixins/renders_sleep_lines'

/** Nightly Recharge of one night; `hrvAvg` is the RMSSD in ms. The same night's rendered sleep lines show its values. */
export default class NightlyRecharge extends compose(NightlyRechargeSchema, RendersSleepLines) {
  static table = 'nightly_recharges'
}
