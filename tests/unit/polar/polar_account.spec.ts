import { test } from '@japa/runner'
import { collectPolarUserIds, polarUserIdOfUrl } from '#services/polar/polar_account'

test.group('Polar | account of a payload', () => {
  test('the user id at the end of a polar_user URL', ({ assert }) => {
    assert.equal(polarUserIdOfUrl('https://www.polaraccesslink.com/v3/users/64323403'), '64323403')
    assert.equal(polarUserIdOfUrl('https://polaraccesslink.com/v3/users/627139/'), '627139')
    // The spec's own examples miss the ".com"; the path is what counts.
    assert.equal(polarUserIdOfUrl('https://www.polaraccesslink/v3/users/1'), '1')
    assert.isNull(polarUserIdOfUrl('https://www.polaraccesslink.com/v3/users/abc'))
    assert.isNull(polarUserIdOfUrl(64323403))
    assert.isNull(polarUserIdOfUrl(null))
  })

  test('found in every wire shape that carries it', ({ assert }) => {
    const url = (id: number) => `https://www.polaraccesslink.com/v3/users/${id}`
    const shapes: Array<[unknown, string[]]> = [
      [{ nights: [{ polar_user: url(1), date: '2026-03-01' }, { polar_user: url(1) }] }, ['1']],
      [{ recharges: [{ polar_user: url(2) }] }, ['2']],
      [[{ id: 'y3BwKd7Y', polar_user: url(3) }], ['3']],
      [{ 'polar-user': url(4), 'date': '2026-03-01' }, ['4']],
      [{ heart_rates: [{ polar_user: url(5), heart_rate_samples: [{ heart_rate: 60, sample_time: '00:00:00' }] }] }, ['5']],
      [{ nights: [{ polar_user: url(6) }, { polar_user: url(7) }] }, ['6', '7']],
      [[{ date: '2026-03-01', steps: 100 }], []],
      [null, []],
      [[1, 2, 3], []],
    ]
    for (const [payload, ids] of shapes) assert.sameMembers([...collectPolarUserIds(payload, new Set())], ids)
  })
})
