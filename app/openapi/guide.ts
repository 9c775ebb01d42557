/**
 * `info.description` of the served document: what an integrator reads first in Swagger UI and
 * ReDoc. Markdown.
 */
export const GETTING_STARTED = `
HRVault keeps every Polar wearable measurement of its users forever and serves it with personal
baselines, anomalies, patterns and plain-language insights.

## Getting started

1. **Get a key.** On the server: \`node ace api-key create --name my-app\` for a service key (every user)
   or \`--user <user_id>\` for a key limited to one user; or the admin UI's *API keys* page. A key is
   shown once. Send it as \`X-API-Key: hrv_…\` on every \`/api/v1\` request (Swagger UI: *Authorize*).
2. **Find the user.** \`GET /api/v1/users\` lists the users the key may see. A \`user_id\` is the user's
   Polar user id on a self-hosted server, or the id you chose when you first triggered a sync for them.
3. **Read.** \`GET /api/v1/users/{user_id}/today\` is the one-call view of last night and today;
   \`/sleep\`, \`/recharge\`, \`/activity\` … are the raw data; \`/insights\` the analysis.

## Date windows

\`days=N\` covers exactly N calendar days ending today in the server's timezone (\`APP_TIMEZONE\`).
Instead, \`from=YYYY-MM-DD\` and \`to=YYYY-MM-DD\` are an inclusive range over the whole history
(\`from\` alone runs to today; \`to\` alone, \`days\` with either, or \`from\` after \`to\` is a 422).
JSON lists are newest first, CSV and JSON Lines files oldest first. \`null\` means not measured; a
real 0 stays 0.

## Pages

Lists and exports answer the whole window unless asked for pages with \`limit\` (1–1000) and
\`cursor\`; the body stays a JSON array (or file). When more rows exist the answer has
\`Link: </api/v1/…&cursor=…>; rel="next"\` (relative to the request): follow it until there is none.
A paged answer carries \`X-Total-Count\`, the rows of the whole window. The user and sync-run lists
are always paged (50 by default).

## Errors

Every error is RFC 9457 \`application/problem+json\`: \`{type, title, status, detail, code, errors?}\`.
\`code\` is stable (\`E_UNKNOWN_USER\`, \`E_VALIDATION_ERROR\`, …); a 422 names each bad parameter in
\`errors[].field\` as you sent it, and a query parameter the operation does not take is a 422 too.
401 no or unknown key, 403 a key of another user, 404 unknown user or record, 429 rate limited.

## Rate limits and caching

Each key has \`RATE_LIMIT_REQUESTS\` per \`RATE_LIMIT_WINDOW\` (default 1000 per 15 minutes); every answer
carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`, a 429 also \`Retry-After\`.
Data and analytics GETs carry a strong \`ETag\` with \`Cache-Control: private, no-cache\`: send it back in
\`If-None-Match\` and an unchanged answer is a 304 without a body.

## The other APIs

The operations API (\`/ops\`, bearer tokens with scopes), the Coolify dashboard API (\`/coolify/api\`,
admin session), the OAuth server of the MCP endpoint and the Polar webhook receiver are described
below under their own tags. The answer examples are real answers of HRVault, captured against its
Polar and Coolify simulators (\`npm run openapi:examples\`).
`.trim()

/** Tag groups of ReDoc's menu: the APIs by audience. */
export const TAG_GROUPS = [
  { name: 'Analytics API', tags: ['Users', 'Sync', 'Data', 'Analytics', 'Export'] },
  { name: 'AI connectors', tags: ['OAuth'] },
  { name: 'Polar push', tags: ['Webhooks'] },
  { name: 'Operations API', tags: ['Operations'] },
  { name: 'Coolify dashboard API', tags: ['Coolify', 'Coolify ops proxy'] },
  { name: 'Server', tags: ['Server'] },
]
