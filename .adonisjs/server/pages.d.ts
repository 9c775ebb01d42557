import '@adonisjs/inertia/types'

import type { VNodeProps, AllowedComponentProps, ComponentInstance } from 'vue'

type ExtractProps<T> = Omit<
  ComponentInstance<T>['$props'],
  keyof VNodeProps | keyof AllowedComponentProps
>

declare module '@adonisjs/inertia/types' {
  export interface InertiaPages {
    'api_keys': ExtractProps<(typeof import('../../inertia/pages/api_keys.vue'))['default']>
    'auth/login': ExtractProps<(typeof import('../../inertia/pages/auth/login.vue'))['default']>
    'auth/setup': ExtractProps<(typeof import('../../inertia/pages/auth/setup.vue'))['default']>
    'connected_apps': ExtractProps<(typeof import('../../inertia/pages/connected_apps.vue'))['default']>
    'coolify/index': ExtractProps<(typeof import('../../inertia/pages/coolify/index.vue'))['default']>
    'coolify/ops': ExtractProps<(typeof import('../../inertia/pages/coolify/ops.vue'))['default']>
    'oauth/consent': ExtractProps<(typeof import('../../inertia/pages/oauth/consent.vue'))['default']>
    'oauth/error': ExtractProps<(typeof import('../../inertia/pages/oauth/error.vue'))['default']>
    'overview': ExtractProps<(typeof import('../../inertia/pages/overview.vue'))['default']>
    'polar': ExtractProps<(typeof import('../../inertia/pages/polar.vue'))['default']>
    'users': ExtractProps<(typeof import('../../inertia/pages/users.vue'))['default']>
    'users/show': ExtractProps<(typeof import('../../inertia/pages/users/show.vue'))['default']>
  }
}
