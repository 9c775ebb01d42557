/*
|--------------------------------------------------------------------------
| JavaScript entrypoint for running ace commands
|--------------------------------------------------------------------------
|
| Loads the TypeScript loader, then the TypeScript entrypoint.
|
*/
import '@poppinss/ts-exec'
await import('./bin/console.js')
