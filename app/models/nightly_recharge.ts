import { NightlyRechargeSchema } from '#database/schema'

/** Nightly Recharge of one night; `hrvAvg` is the RMSSD in ms. */
export default class NightlyRecharge extends NightlyRechargeSchema {
  static table = 'nightly_recharges'
}
