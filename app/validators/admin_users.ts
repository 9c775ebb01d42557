import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { userIdRule } from '#validators/rules'

/*
 * The per-user admin page (/admin/users/:user): display name, erasure, the user's API keys.
 * Forms post through Inertia; a failure redirects back with the messages flashed per field.
 */

/** Longest display name (the column is varchar(80)). */
export const DISPLAY_NAME_MAX = 80

/** No control characters (tabs, line breaks, NUL…): the name is one line of text. */
const PRINTABLE = /^[^\p{Cc}]*$/u

/** PATCH /admin/users/:user: the display name, or null (an empty field) to remove it. */
export const updateUserValidator = vine.create({
  params: vine.object({ user: userIdRule() }),
  display_name: vine.string().trim().maxLength(DISPLAY_NAME_MAX).regex(PRINTABLE).nullable(),
})
updateUserValidator.messagesProvider = new SimpleMessagesProvider({
  'display_name.required': 'Enter a display name, or leave the field empty to remove it.',
  'display_name.string': 'A display name is text.',
  'display_name.maxLength': `A display name has at most ${DISPLAY_NAME_MAX} characters.`,
  'display_name.regex': 'A display name is one line of text, without tabs or line breaks.',
})

/** The typed confirmation of an erasure must repeat the user id of the URL exactly. */
const repeatsUserId = vine.createRule((value, _options, field) => {
  const params = (field.data as { params?: { user?: unknown } }).params
  if (value !== params?.user) field.report('Type the user id exactly to confirm the deletion.', 'confirmUser', field)
})

/** DELETE /admin/users/:user with `confirm` = the user id. */
export const deleteAdminUserValidator = vine.create({
  params: vine.object({ user: userIdRule() }),
  confirm: vine.string().use(repeatsUserId()),
})
deleteAdminUserValidator.messagesProvider = new SimpleMessagesProvider({
  'confirm.required': 'Type the user id to confirm the deletion.',
})

/** DELETE /admin/users/:user/api-keys/:prefix */
export const userApiKeyParamValidator = vine.create({
  params: vine.object({ user: userIdRule(), prefix: vine.string().regex(/^hrv_[A-Za-z0-9_-]{8}$/) }),
})
