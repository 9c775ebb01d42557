import * as z from 'zod'
import type { McpServer } from '@modelcontextprotocol/server'

const userArg = z
  .string()
  .optional()
  .describe('HRVault user id; leave it out with a personal API key or an OAuth connection.')

/** " for user X" with the tool argument to pass, or nothing for the credential's own user. */
function forUser(userId: string | undefined) {
  return userId
    ? { who: `user ${userId}`, arg: ` Pass user_id "${userId}" to every tool.` }
    : { who: 'me', arg: '' }
}

/** The two prompts: they chain the tools for a question people ask often. */
export function registerMcpPrompts(server: McpServer) {
  server.registerPrompt(
    'weekly_recovery_review',
    {
      title: 'Weekly recovery review',
      description: 'Reviews the last 7 days of recovery: HRV and resting heart rate against baselines, sleep, training load and anomalies, with advice for the coming week.',
      argsSchema: z.object({ user_id: userArg }),
    },
    ({ user_id: userId }) => {
      const { who, arg } = forUser(userId)
      return {
        description: 'Weekly recovery review',
        messages: [
          {
            role: 'user' as const,
            content: {
              type: 'text' as const,
              text: [
                `Review the recovery of ${who} over the last 7 days, using the HRVault tools.${arg}`,
                '1. Call get_health_insights for the current state, the freshness of the data and the observations.',
                '2. Call get_recovery with days 7 for nightly HRV, resting heart rate and ANS charge, and get_baselines to compare them with the personal normal range.',
                '3. Call get_sleep with days 7 for sleep score and duration, and get_cardio_load with days 14 for training load and the strain/tolerance ratio.',
                '4. Call get_anomalies for values outside the normal bounds.',
                'Then write a short review: how recovery developed day by day, what stands out (HRV, resting heart rate, sleep, load), the likely reasons, and two or three concrete suggestions for the coming week. Quote values with their units and dates, and say so if the data is stale or too short for baselines.',
              ].join('\n'),
            },
          },
        ],
      }
    }
  )

  server.registerPrompt(
    'why_was_my_hrv_low',
    {
      title: 'Why was my HRV low?',
      description: 'Investigates a low overnight HRV: checks it against the baseline and looks at the sleep, training, heart rate and patterns around that night.',
      argsSchema: z.object({
        user_id: userArg,
        date: z.string().optional().describe('The night to investigate (YYYY-MM-DD); the latest night when left out.'),
      }),
    },
    ({ user_id: userId, date }) => {
      const { who, arg } = forUser(userId)
      const night = date ? `the night ending ${date}` : 'the latest night'
      return {
        description: 'Why was my HRV low?',
        messages: [
          {
            role: 'user' as const,
            content: {
              type: 'text' as const,
              text: [
                `Find out why the HRV of ${who} was low on ${night}, using the HRVault tools.${arg}`,
                '1. Call get_recovery with days 14 and take that night’s hrv_avg (ms); call check_metric with metric_name hrv_rmssd and that value to see how far it is below the baseline.',
                `2. Call get_sleep${date ? ` with date ${date}` : ' with days 3'} for that night’s sleep (duration, interruptions, heart rate) and get_heart_rate with days 3.`,
                '3. Call get_exercises with days 3 and get_cardio_load with days 14: a hard session or a rising strain/tolerance ratio often lowers HRV the next night.',
                '4. Call get_patterns (hrv_trend, sleep_hrv_correlation, overtraining_risk) and get_anomalies to see whether it is a single night or a trend.',
                'Then explain the most likely causes in plain language, ranked, with the values (units and dates) that support each, say what cannot be known from the data (alcohol, illness, stress), and suggest what to watch over the next nights.',
              ].join('\n'),
            },
          },
        ],
      }
    }
  )
}
