/*
|--------------------------------------------------------------------------
| MCP endpoint for AI assistants (Streamable HTTP)
|--------------------------------------------------------------------------
|
| API key or OAuth access token; counted against the same per-key budget as
| the analytics API. POST carries the JSON-RPC messages; GET and DELETE are
| answered by the SDK (405: a stateless server has no stream or session).
|
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const McpController = () => import('#controllers/mcp_controller')

router
  .route('/mcp', ['GET', 'POST', 'DELETE'], [McpController, 'handle'])
  .as('mcp')
  .use([middleware.mcpAuth(), middleware.apiRateLimit()])
