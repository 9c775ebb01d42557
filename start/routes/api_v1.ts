/*
|--------------------------------------------------------------------------
| Analytics API v1: raw data and export (Surface A)
|--------------------------------------------------------------------------
|
| Path parameters are validated by each action's VineJS validator (422 on
| bad input), never by router matchers (which would answer 404).
|
*/
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const SleepController = () => import('#controllers/api/v1/sleep_controller')
const ActivityController = () => import('#controllers/api/v1/activity_controller')
const RechargeController = () => import('#controllers/api/v1/recharge_controller')
const ExercisesController = () => import('#controllers/api/v1/exercises_controller')
const ExerciseSamplesController = () => import('#controllers/api/v1/exercise_samples_controller')
const ExerciseRoutesController = () => import('#controllers/api/v1/exercise_routes_controller')
const ExerciseFilesController = () => import('#controllers/api/v1/exercise_files_controller')
const CardioLoadController = () => import('#controllers/api/v1/cardio_load_controller')
const HeartRateController = () => import('#controllers/api/v1/heart_rate_controller')
const SleepwiseAlertnessController = () => import('#controllers/api/v1/sleepwise_alertness_controller')
const SleepwiseBedtimeController = () => import('#controllers/api/v1/sleepwise_bedtime_controller')
const Spo2Controller = () => import('#controllers/api/v1/spo2_controller')
const EcgController = () => import('#controllers/api/v1/ecg_controller')
const BodyTemperatureController = () => import('#controllers/api/v1/body_temperature_controller')
const SkinTemperatureController = () => import('#controllers/api/v1/skin_temperature_controller')
const ExportsController = () => import('#controllers/api/v1/exports_controller')
const PhysicalInfoController = () => import('#controllers/api/v1/physical_info_controller')
const ActivitySamplesController = () => import('#controllers/api/v1/activity_samples_controller')
const HeartRateSamplesController = () => import('#controllers/api/v1/heart_rate_samples_controller')

router
  .group(() => {
    router.get('/users/:user_id/sleep', [SleepController, 'index']).as('sleep.index')
    router.get('/users/:user_id/sleep/:date', [SleepController, 'show']).as('sleep.show')
    router.get('/users/:user_id/activity', [ActivityController, 'index']).as('activity.index')
    router.get('/users/:user_id/activity/:date', [ActivityController, 'show']).as('activity.show')
    router.get('/users/:user_id/recharge', [RechargeController, 'index']).as('recharge.index')
    router.get('/users/:user_id/exercises', [ExercisesController, 'index']).as('exercises.index')
    // `:id.tcx` before `:id`: the router takes the first pattern that matches, and `:id` matches `5.tcx` too.
    router.get('/users/:user_id/exercises/:id.tcx', [ExerciseFilesController, 'tcx']).as('exercises.tcx')
    router.get('/users/:user_id/exercises/:id', [ExercisesController, 'show']).as('exercises.show')
    router.get('/users/:user_id/exercises/:id/samples', [ExerciseSamplesController, 'show']).as('exercise_samples.show')
    router.get('/users/:user_id/exercises/:id/route', [ExerciseRoutesController, 'show']).as('exercise_routes.show')
    router.get('/users/:user_id/exercises/:id/route.gpx', [ExerciseFilesController, 'gpx']).as('exercises.gpx')
    router.get('/users/:user_id/cardio-load', [CardioLoadController, 'index']).as('cardio_load.index')
    router.get('/users/:user_id/heart-rate', [HeartRateController, 'index']).as('heart_rate.index')
    router
      .get('/users/:user_id/heart-rate/:date/samples', [HeartRateSamplesController, 'show'])
      .as('heart_rate_samples.show')
    router.get('/users/:user_id/physical-info', [PhysicalInfoController, 'show']).as('physical_info.show')
    router.get('/users/:user_id/activity-samples', [ActivitySamplesController, 'index']).as('activity_samples.index')
    router
      .get('/users/:user_id/activity-samples/:date', [ActivitySamplesController, 'show'])
      .as('activity_samples.show')
    router
      .get('/users/:user_id/sleepwise/alertness', [SleepwiseAlertnessController, 'index'])
      .as('sleepwise_alertness.index')
    router
      .get('/users/:user_id/sleepwise/bedtime', [SleepwiseBedtimeController, 'index'])
      .as('sleepwise_bedtime.index')
    router.get('/users/:user_id/spo2', [Spo2Controller, 'index']).as('spo2.index')
    router.get('/users/:user_id/ecg', [EcgController, 'index']).as('ecg.index')
    router
      .get('/users/:user_id/temperature/body', [BodyTemperatureController, 'index'])
      .as('body_temperature.index')
    router
      .get('/users/:user_id/temperature/skin', [SkinTemperatureController, 'index'])
      .as('skin_temperature.index')

    router.get('/users/:user_id/export/summary', [ExportsController, 'summary']).as('export.summary')
    router.get('/users/:user_id/export/sleep.csv', [ExportsController, 'sleep']).as('export.sleep')
    router.get('/users/:user_id/export/activity.csv', [ExportsController, 'activity']).as('export.activity')
    router.get('/users/:user_id/export/recharge.csv', [ExportsController, 'recharge']).as('export.recharge')
    router.get('/users/:user_id/export/cardio-load.csv', [ExportsController, 'cardioLoad']).as('export.cardio_load')
    router.get('/users/:user_id/export/:type.jsonl', [ExportsController, 'jsonl']).as('export.jsonl')
  })
  .prefix('/api/v1')
  .as('api.v1')
  .use([middleware.apiKey(), middleware.apiRateLimit(), middleware.readCache()])
