import { BodyTemperatureSchema } from '#database/schema'

/** A body-temperature measurement period (°C); samples kept as JSON. */
export default class BodyTemperature extends BodyTemperatureSchema {
  static table = 'body_temperatures'
}
