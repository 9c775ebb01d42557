import { BaseTransformer } from '@adonisjs/core/transformers'
import type CardioLoad from '#models/cardio_load'

/** Spec "Cardio load record"; Polar's -1 "not available" is null (stored so). */
export default class CardioLoadTransformer extends BaseTransformer<CardioLoad> {
  toObject() {
    const day = this.resource
    return {
      date: day.date,
      strain: day.strain,
      tolerance: day.tolerance,
      cardio_load: day.cardioLoad,
      cardio_load_ratio: day.cardioLoadRatio,
      cardio_load_status: day.cardioLoadStatus,
    }
  }
}
