/*
|--------------------------------------------------------------------------
| Analytics API v1: baselines, anomalies, patterns, status, insights, today (Surface A)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const BaselinesController = () => import('#controllers/api/v1/baselines_controller')
const BaselineChecksController = () => import('#controllers/api/v1/baseline_checks_controller')
const BaselineCalculationsController = () => import('#controllers/api/v1/baseline_calculations_controller')
const AnomaliesController = () => import('#controllers/api/v1/anomalies_controller')
const PatternsController = () => import('#controllers/api/v1/patterns_controller')
const PatternDetectionsController = () => import('#controllers/api/v1/pattern_detections_controller')
const AnalyticsStatusController = () => import('#controllers/api/v1/analytics_status_controller')
const InsightsController = () => import('#controllers/api/v1/insights_controller')
const TodayController = () => import('#controllers/api/v1/today_controller')

router
  .group(() => {
    router.get('/users/:user_id/baselines', [BaselinesController, 'index']).as('baselines.index')
    router
      .post('/users/:user_id/baselines/calculate', [BaselineCalculationsController, 'store'])
      .as('baselines.calculate')
    router
      .get('/users/:user_id/baselines/check/:metric_name/:value', [BaselineChecksController, 'show'])
      .as('baselines.check')
    router.get('/users/:user_id/baselines/:metric_name', [BaselinesController, 'show']).as('baselines.show')
    router.get('/users/:user_id/anomalies', [AnomaliesController, 'index']).as('anomalies.index')
    router.get('/users/:user_id/analytics/status', [AnalyticsStatusController, 'show']).as('analytics.status')
    router.get('/users/:user_id/patterns', [PatternsController, 'index']).as('patterns.index')
    router.post('/users/:user_id/patterns/detect', [PatternDetectionsController, 'store']).as('patterns.detect')
    router.get('/users/:user_id/patterns/:pattern_name', [PatternsController, 'show']).as('patterns.show')
    router.get('/users/:user_id/insights', [InsightsController, 'show']).as('insights.show')
    router.get('/users/:user_id/today', [TodayController, 'show']).as('today.show')
  })
  .prefix('/api/v1')
  .as('api.v1')
  .use([middleware.apiKey(), middleware.apiRateLimit(), middleware.readCache()])
