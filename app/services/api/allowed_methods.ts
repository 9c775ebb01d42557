import router from '@adonisjs/core/services/router'

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/** Paths whose wrong method is a 405 with `Allow` (the analytics API), not a 404. */
export const isMethodCheckedPath = (path: string) => path.startsWith('/api/v1/')

/**
 * The methods some route accepts on `path` (GET routes also answer HEAD), in a stable order; empty
 * when no route matches the path with any method, which stays a 404.
 */
export function allowedMethods(path: string): string[] {
  return METHODS.filter((method) => router.match(path, method, false) !== null)
}
