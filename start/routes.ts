/*
|--------------------------------------------------------------------------
| Routes
|--------------------------------------------------------------------------
|
| One file per surface under start/routes/.
|
*/
import './routes/public.js'
import './routes/api_v1.js'
import './routes/api_v1_users.js'
import './routes/api_v1_sync.js'
import './routes/api_v1_analytics.js'
import './routes/ops.js'
import './routes/coolify.js'
import './routes/admin.js'
import './routes/webhooks.js'
import './routes/mcp.js'
import './routes/oauth.js'
