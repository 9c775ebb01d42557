import { SkinTemperatureSchema } from '#database/schema'

/** Nightly skin temperature (°C) and its deviation from the personal baseline. */
export default class SkinTemperature extends SkinTemperatureSchema {
  static table = 'skin_temperatures'
}
