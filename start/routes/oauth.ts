/*
|--------------------------------------------------------------------------
| OAuth 2.1 authorization server (AI connectors of the MCP endpoint)
|--------------------------------------------------------------------------
|
| Discovery (RFC 9728, RFC 8414), dynamic client registration (RFC 7591),
| the token and revocation endpoints (client-authenticated machine paths:
| no session, no CSRF, RFC error JSON) and the authorization endpoint, an
| admin UI page (admin session and CSRF) that shows the consent screen.
| `/.well-known/openid-configuration` is deliberately not served (a 404
| problem): HRVault issues no ID tokens.
|
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const Metadata = () => import('#controllers/oauth/metadata_controller')
const Registration = () => import('#controllers/oauth/registration_controller')
const Authorization = () => import('#controllers/oauth/authorization_controller')
const Token = () => import('#controllers/oauth/token_controller')
const Revocation = () => import('#controllers/oauth/revocation_controller')

router
  .group(() => {
    router.get('/oauth-protected-resource', [Metadata, 'protectedResource']).as('protected_resource')
    router.get('/oauth-protected-resource/mcp', [Metadata, 'protectedResource']).as('protected_resource.mcp')
    router.get('/oauth-authorization-server', [Metadata, 'authorizationServer']).as('authorization_server')
  })
  .prefix('/.well-known')
  .as('well_known')

router
  .group(() => {
    router.post('/register', [Registration, 'store']).as('register')
    router.post('/token', [Token, 'handle']).as('token')
    router.post('/revoke', [Revocation, 'handle']).as('revoke')
  })
  .prefix('/oauth')
  .as('oauth')

router
  .group(() => {
    router.get('/authorize', [Authorization, 'show']).as('authorize')
    router.post('/authorize', [Authorization, 'store']).as('authorize.decide')
  })
  .prefix('/oauth')
  .as('oauth')
  .use(middleware.auth())
