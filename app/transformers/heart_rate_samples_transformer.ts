import { BaseTransformer } from '@adonisjs/core/transformers'
import type { HeartRateSampleDay } from '#services/records/heart_rate_samples_service'

/** GET /heart-rate/{date}/samples: the day's samples > 0 with their count. */
export default class HeartRateSamplesTransformer extends BaseTransformer<HeartRateSampleDay> {
  toObject() {
    const day = this.resource
    return {
      date: day.date,
      sample_count: day.samples.length,
      samples: day.samples.map((sample) => ({ time: sample.time, bpm: sample.bpm })),
    }
  }
}
