import { BaseTransformer } from '@adonisjs/core/transformers'
import type { RechargeListRecord } from '#services/records/recharge_service'
import { ansChargeStatusLabel } from '#services/polar/labels'
import { toInteger } from '#services/records/units'

/** Spec "Nightly recharge record"; `ans_charge_status` 1–5 is served as its label (DESIGN §4). */
export default class NightlyRechargeTransformer extends BaseTransformer<RechargeListRecord> {
  toObject() {
    const night = this.resource
    return {
      date: night.date,
      hrv_avg: night.hrvAvg,
      ans_charge: night.ansCharge,
      ans_charge_status: ansChargeStatusLabel(night.ansChargeStatus),
      breathing_rate_avg: night.breathingRateAvg,
      heart_rate_avg: toInteger(night.heartRateAvg),
    }
  }
}
