/*
|--------------------------------------------------------------------------
| Coolify simulator
|--------------------------------------------------------------------------
|
| `npm run coolify:simulator [-- --port 4020 --token demo-coolify-token
|   --ops-url http://127.0.0.1:3333 --ops-token <an OPS_TOKEN of that HRVault> --ops-prefix /ops]`
| serves the Coolify v4 API on loopback until Ctrl+C. The seeded "hrvault"
| application points at --ops-url, so the dashboard's ops proxy reaches a
| running HRVault. Point HRVault at it with the printed COOLIFY_* variables.
|
*/
import { parseArgs } from 'node:util'
import { start, SIM_UUIDS } from '#simulators/coolify/simulator'

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '4020' },
    token: { type: 'string', default: 'demo-coolify-token' },
    'ops-url': { type: 'string', default: 'http://127.0.0.1:3333' },
    'ops-token': { type: 'string' },
    'ops-prefix': { type: 'string', default: '/ops' },
  },
})

const simulator = await start({
  host: values.host,
  port: Number(values.port),
  token: values.token,
  opsAppFqdn: values['ops-url'],
  opsToken: values['ops-token'],
  opsPrefix: values['ops-prefix'],
})

process.stdout.write(
  [
    `Coolify simulator (v${simulator.state.version}) listening on ${simulator.url}`,
    `  COOLIFY_URL=${simulator.url}`,
    `  COOLIFY_TOKEN=${simulator.token}`,
    `  COOLIFY_PROJECT_UUID=${SIM_UUIDS.project}   (optional scope)`,
    `  COOLIFY_OPS_ALLOW_PRIVATE=true   (the application's ops API is on loopback over http)`,
    `  application "hrvault" ${SIM_UUIDS.app} -> ${values['ops-url']}${values['ops-prefix']}`,
    '',
  ].join('\n')
)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await simulator.close()
    process.exit(0)
  })
}
