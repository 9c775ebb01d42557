import factory from '@adonisjs/lucid/factories'
import NightlyRecharge from '#models/nightly_recharge'
import { fillUnset, localTime, nextFactoryDate, plusDays } from '#database/factories/sequence'

/** A Nightly Recharge (RMSSD, breathing, ANS charge). Merge `userId` and usually `date`. */
export const NightlyRechargeFactory = factory
  .define(NightlyRecharge, ({ faker }) => ({
    date: nextFactoryDate(),
    heartRateAvg: faker.number.int({ min: 48, max: 62 }),
    beatToBeatAvg: faker.number.int({ min: 900, max: 1200 }),
    hrvAvg: faker.number.float({ min: 30, max: 80, fractionDigits: 1 }),
    breathingRateAvg: faker.number.float({ min: 12, max: 16, fractionDigits: 1 }),
    nightlyRechargeStatus: faker.number.int({ min: 1, max: 6 }),
    ansCharge: faker.number.float({ min: -5, max: 5, fractionDigits: 1 }),
    ansChargeStatus: faker.number.int({ min: 1, max: 5 }),
  }))
  .before('create', (_, night) => {
    const eve = plusDays(night.date, -1)
    fillUnset(night, {
      hrvSamples: JSON.stringify([{ time: localTime(eve, '23:30:00'), hrv: 45 }]),
      breathingSamples: JSON.stringify([{ time: localTime(eve, '23:30:00'), breathing_rate: 14.2 }]),
    })
  })
  .build()
