import vine from '@vinejs/vine'
import { CLIENT_AUTH_METHODS, OAUTH_SCOPES } from '#config/oauth'
import { userIdRule } from '#validators/rules'

/*
 * OAuth authorization server validators. Failures on the token, revocation and registration
 * endpoints are answered in the RFCs' JSON (`invalid_request`, `invalid_client_metadata`); on
 * the authorization endpoint with an error page, never a redirect (the exception handler).
 */

const text = (max: number) => vine.string().maxLength(max)

/** POST /oauth/register (RFC 7591 §2): unknown members are ignored. */
export const registerClientValidator = vine.create({
  redirect_uris: vine.array(text(2000)).minLength(1).maxLength(10),
  client_name: vine.string().trim().minLength(1).maxLength(200).optional(),
  token_endpoint_auth_method: vine.enum(CLIENT_AUTH_METHODS).optional(),
  grant_types: vine.array(text(100)).maxLength(10).optional(),
  response_types: vine.array(text(100)).maxLength(10).optional(),
  client_uri: vine.string().url({ require_tld: false, protocols: ['http', 'https'] }).maxLength(2000).optional(),
  software_id: text(200).optional(),
  software_version: text(100).optional(),
  scope: text(500).optional(),
})

/** The parameters of an authorization request (RFC 6749 §4.1.1, RFC 7636, RFC 8707), checked by the service. */
const authorizationRequest = {
  response_type: text(50).optional(),
  client_id: text(100).optional(),
  redirect_uri: text(2000).optional(),
  code_challenge: text(200).optional(),
  code_challenge_method: text(20).optional(),
  state: text(1000).optional(),
  scope: text(500).optional(),
  resource: text(2000).optional(),
}

/** GET /oauth/authorize */
export const authorizeValidator = vine.create(authorizationRequest)

/** POST /oauth/authorize: the admin's decision on the consent page, with the request echoed. */
export const consentValidator = vine.create({
  ...authorizationRequest,
  decision: vine.enum(['approve', 'deny'] as const),
  user_id: userIdRule().optional().requiredWhen('decision', '=', 'approve'),
  scopes: vine.array(vine.enum(OAUTH_SCOPES)).minLength(1).distinct().optional().requiredWhen('decision', '=', 'approve'),
})

/** POST /oauth/token (form body, RFC 6749 §4.1.3 and §6). */
export const tokenRequestValidator = vine.create({
  grant_type: text(100),
  code: text(200).optional(),
  code_verifier: text(200).optional(),
  redirect_uri: text(2000).optional(),
  refresh_token: text(200).optional(),
  scope: text(500).optional(),
  resource: text(2000).optional(),
  client_id: text(100).optional(),
  client_secret: text(200).optional(),
})

/** POST /oauth/revoke (RFC 7009 §2.1). */
export const revokeTokenValidator = vine.create({
  token: text(500),
  token_type_hint: text(50).optional(),
  client_id: text(100).optional(),
  client_secret: text(200).optional(),
})

/** DELETE /admin/connected-apps/:id */
export const connectedAppParamValidator = vine.create({
  params: vine.object({ id: vine.number().withoutDecimals().positive() }),
})
