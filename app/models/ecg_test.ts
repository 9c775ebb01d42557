import { EcgTestSchema } from '#database/schema'

/** An ECG test; waveform and quality samples kept as JSON. */
export default class EcgTest extends EcgTestSchema {
  static table = 'ecg_tests'
}
