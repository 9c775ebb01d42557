import router from '@adonisjs/core/services/router'
import { dashboardApiPrefix, dashboardPrefix, isProblemJsonPath, mcpPath, opsPrefix } from '#config/surfaces'

export type Surface = 'analytics' | 'ops' | 'dashboard_api' | 'admin' | 'dashboard_page' | 'mcp' | 'public'

export interface RouteInfo {
  name: string
  pattern: string
  /** Methods without HEAD (HEAD follows GET). */
  methods: string[]
  /** Names of the `:param` tokens, in order. */
  params: string[]
  surface: Surface
  /** Errors on this route are RFC 9457 problem+json. */
  problemJson: boolean
}

const startsWithSegment = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`)

export function surfaceOf(pattern: string): Surface {
  if (startsWithSegment(pattern, '/api')) return 'analytics'
  if (startsWithSegment(pattern, opsPrefix)) return 'ops'
  if (startsWithSegment(pattern, dashboardApiPrefix)) return 'dashboard_api'
  if (startsWithSegment(pattern, mcpPath)) return 'mcp'
  // The OAuth consent page is an admin page (session, CSRF) outside /admin.
  if (startsWithSegment(pattern, '/admin') || pattern === '/oauth/authorize') return 'admin'
  if (startsWithSegment(pattern, dashboardPrefix)) return 'dashboard_page'
  return 'public'
}

/**
 * Every registered route, read from the router at run time, so a route added
 * later is covered without touching the tests.
 */
export function allRoutes(): RouteInfo[] {
  router.commit()
  const out: RouteInfo[] = []
  for (const routes of Object.values(router.toJSON())) {
    for (const route of routes) {
      const params = route.pattern
        .split('/')
        .filter((segment) => segment.startsWith(':'))
        .map((segment) => paramOf(segment).name)
      out.push({
        name: route.name ?? `${route.methods.join(',')} ${route.pattern}`,
        pattern: route.pattern,
        methods: route.methods.filter((m) => m !== 'HEAD'),
        params,
        surface: surfaceOf(route.pattern),
        problemJson: isProblemJsonPath(route.pattern),
      })
    }
  }
  return out
}

/** A `:param` segment's name and static suffix (`:id.tcx` → id, `.tcx`). */
function paramOf(segment: string): { name: string; suffix: string } {
  const [, name, suffix] = /^:([^.?]+)\??(.*)$/.exec(segment) ?? [null, segment.slice(1), '']
  return { name, suffix }
}

/** Fills a pattern's params with already-encoded values (a static suffix such as `.tcx` kept). */
export function fillPattern(pattern: string, values: Record<string, string>): string {
  return pattern
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment
      const { name, suffix } = paramOf(segment)
      return `${values[name] ?? 'x'}${suffix}`
    })
    .join('/')
}

export const isMutation = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method)
