import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { daysRule, isoDateRule, isRealCalendarDate, userIdRule } from '#validators/rules'

/*
 * Admin UI validators. Forms post through Inertia; a failure redirects back
 * with the messages flashed per field.
 */

const email = () => vine.string().trim().toLowerCase().email().maxLength(254)
const newPassword = () => vine.string().minLength(12).maxLength(200)

/** POST /admin/setup: the one-time token printed in the server log plus the first admin. */
export const setupValidator = vine.create({
  token: vine.string().trim().minLength(1).maxLength(200),
  email: email(),
  password: newPassword().confirmed({ as: 'password_confirmation' }),
})
setupValidator.messagesProvider = new SimpleMessagesProvider({
  'token.required': 'Enter the setup token printed on the server console.',
  'token.minLength': 'Enter the setup token printed on the server console.',
  'token.maxLength': 'This is not a setup token: use the one printed on the server console.',
  'email.required': 'Enter an email address for the admin account.',
  'email.email': 'Enter a valid email address, like you@example.com.',
  'email.maxLength': 'The email address is too long.',
  'password.required': 'Choose a password of at least 12 characters.',
  'password.minLength': 'The password needs at least 12 characters.',
  'password.maxLength': 'The password can have at most 200 characters.',
  'password.confirmed': 'The two passwords do not match.',
  'password_confirmation.confirmed': 'The two passwords do not match.',
})

/** POST /admin/login */
export const loginValidator = vine.create({
  email: vine.string().trim().toLowerCase().maxLength(254),
  password: vine.string().maxLength(200),
  next: vine.string().maxLength(2000).optional(),
})

/** GET /admin/login */
export const loginPageValidator = vine.create({
  next: vine.string().maxLength(2000).optional(),
})

/** The chart ranges of the overview and the export links. */
export const RANGES = [7, 30, 90, 365] as const

/** The longest custom range of the overview (three years of daily points). */
export const MAX_CUSTOM_RANGE_DAYS = 1096

/** `to` of a custom range: on or after `from`, at most MAX_CUSTOM_RANGE_DAYS days in all. */
const rangeEnd = vine.createRule((value, _options, field) => {
  const from = field.parent?.from
  if (typeof value !== 'string' || typeof from !== 'string' || !isRealCalendarDate(from)) return
  const span = (Date.parse(value) - Date.parse(from)) / 86_400_000 + 1
  if (span < 1) field.report('The end date must be on or after the start date.', 'rangeOrder', field)
  else if (span > MAX_CUSTOM_RANGE_DAYS) {
    field.report(`A custom range covers at most ${MAX_CUSTOM_RANGE_DAYS} days.`, 'rangeLength', field)
  }
})

/** GET /admin/overview?user=&days= or ?user=&from=&to= (a custom range, both dates inclusive). */
export const overviewValidator = vine.create({
  user: userIdRule().optional(),
  days: vine.number().in([...RANGES]).optional(),
  from: isoDateRule().optional().requiredIfExists('to'),
  to: isoDateRule().use(rangeEnd()).optional().requiredIfExists('from'),
})
overviewValidator.messagesProvider = new SimpleMessagesProvider({
  'from.required': 'Choose a start date.',
  'to.required': 'Choose an end date.',
  'from.regex': 'Enter the start date as YYYY-MM-DD.',
  'to.regex': 'Enter the end date as YYYY-MM-DD.',
})

/** GET /admin/users?days= (the range of the export links). */
export const usersPageValidator = vine.create({
  days: daysRule(365),
})

/** POST /admin/users: registers a user by external id (before connecting Polar). */
export const createUserValidator = vine.create({
  user_id: userIdRule(),
})
createUserValidator.messagesProvider = new SimpleMessagesProvider({
  'user_id.required': 'Enter a user id.',
  'user_id.regex': 'A user id may contain only letters, digits, "_", "." and "-" (at most 100 characters).',
})

/** Routes with a `:user` external id. */
export const userParamValidator = vine.create({
  params: vine.object({ user: userIdRule() }),
})

/** GET /admin/users/:user/sync-status?job=|run= */
export const syncPollValidator = vine.create({
  params: vine.object({ user: userIdRule() }),
  job: vine.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
  run: vine.number().withoutDecimals().positive().optional(),
})

/** POST /admin/api-keys */
export const createApiKeyValidator = vine.create({
  name: vine.string().trim().minLength(1).maxLength(100),
  user_id: userIdRule().optional(),
})

/** DELETE /admin/api-keys/:prefix */
export const apiKeyParamValidator = vine.create({
  params: vine.object({ prefix: vine.string().regex(/^hrv_[A-Za-z0-9_-]{8}$/) }),
})

/** POST /admin/polar/credentials */
export const polarCredentialsValidator = vine.create({
  client_id: vine.string().trim().minLength(1).maxLength(200),
  client_secret: vine.string().trim().minLength(1).maxLength(500),
})

/** POST /admin/polar/webhook: the public receiver URL (APP_URL + /webhooks/polar when empty). */
export const polarWebhookValidator = vine.create({
  url: vine.string().trim().url({ require_tld: false, protocols: ['http', 'https'] }).maxLength(2000).optional(),
})

/** GET /admin/polar/callback: Polar's redirect with `code` + `state`, or `error`. */
export const polarCallbackValidator = vine.create({
  code: vine.string().maxLength(2000).optional(),
  state: vine.string().maxLength(200).optional(),
  error: vine.string().maxLength(200).optional(),
})

/** GET {dashboard}/apps/:uuid/ops */
export const coolifyAppParamValidator = vine.create({
  params: vine.object({ uuid: vine.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }),
})

/** GET /admin/users/:user/export/:file?days= */
export const adminExportValidator = vine.create({
  params: vine.object({
    user: userIdRule(),
    file: vine.enum(['sleep.csv', 'activity.csv', 'recharge.csv', 'cardio-load.csv']),
  }),
  days: daysRule(365),
})
