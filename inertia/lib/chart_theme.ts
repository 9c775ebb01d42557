import { onBeforeUnmount, onMounted, ref } from 'vue'

/** Chart colours, read from the stylesheet's custom properties so charts follow the light or dark theme. */
export interface ChartTheme {
  line: string
  band: string
  bandEdge: string
  warning: string
  critical: string
  grid: string
  text: string
  cursor: string
}

const VARS: Record<keyof ChartTheme, string> = {
  line: '--chart-line',
  band: '--chart-band',
  bandEdge: '--chart-band-edge',
  warning: '--chart-warning',
  critical: '--chart-critical',
  grid: '--chart-grid',
  text: '--muted',
  cursor: '--text',
}

function read(): ChartTheme {
  const style = getComputedStyle(document.documentElement)
  const out = {} as ChartTheme
  for (const [key, name] of Object.entries(VARS) as Array<[keyof ChartTheme, string]>) {
    out[key] = style.getPropertyValue(name).trim() || '#888'
  }
  return out
}

/** The current chart colours; re-read when `prefers-color-scheme` changes. */
export function useChartTheme() {
  const theme = ref<ChartTheme>(read())
  const media = window.matchMedia('(prefers-color-scheme: dark)')
  const update = () => {
    theme.value = read()
  }
  onMounted(() => media.addEventListener('change', update))
  onBeforeUnmount(() => media.removeEventListener('change', update))
  return theme
}
