import { AppSettingSchema } from '#database/schema'

/** A key/value setting from the admin UI; secret values are encrypted with APP_KEY. */
export default class AppSetting extends AppSettingSchema {
  static table = 'app_settings'
}
