/**
 * decisions.md section 3, one table per rule: each row feeds samples at
 * monotonic times and lists which of them are reported.
 */
import type { Location, Sample } from '../../../src/agent/driver.js';
import type { TransmitEvent } from '../../../src/config/model.js';
import { TransmitDecider } from '../../../src/transmit/decider.js';
import { assert } from '../../support/assert.js';

type Step = [atMs: number, sample: number | boolean | string | Location | { errno: number }];

interface Row {
  name: string;
  events: TransmitEvent[];
  steps: Step[];
  /** Which steps are reported. */
  expected: boolean[];
}

function toSample(v: Step[1]): Sample {
  if (typeof v === 'object' && 'errno' in v) return { ok: false, errno: v.errno };
  return { ok: true, value: v };
}

function run(row: Row): void {
  const decider = new TransmitDecider(row.events);
  const got = row.steps.map(([at, v]) => decider.decide(toSample(v), at));
  assert.deepEqual(got, row.expected, row.name);
}

const change: TransmitEvent = { type: 'change' };
const delta = (minimalChange: number): TransmitEvent => ({ type: 'delta', minimalChange });
const interval = (intervalMs: number): TransmitEvent => ({ type: 'interval', intervalMs });
const threshold = (t: number, hysteresis: number): TransmitEvent => ({ type: 'threshold', threshold: t, hysteresis });
const E = (errno: number): { errno: number } => ({ errno });

const tables: Record<string, Row[]> = {
  'rule 1: the first sample is always reported': [
    { name: 'change', events: [change], steps: [[0, 5]], expected: [true] },
    { name: 'threshold', events: [threshold(10, 1)], steps: [[0, 5]], expected: [true] },
    { name: 'error first', events: [change], steps: [[0, E(-5)]], expected: [true] },
  ],
  'rule 2: value/error transitions always report': [
    {
      name: 'value to error',
      events: [change],
      steps: [
        [0, 1],
        [1, E(-5)],
        [2, E(-5)],
      ],
      expected: [true, true, false],
    },
    {
      name: 'error to value',
      events: [delta(100)],
      steps: [
        [0, E(-5)],
        [1, 1],
        [2, 2],
      ],
      expected: [true, true, false],
    },
    {
      name: 'error to other error',
      events: [change],
      steps: [
        [0, E(-5)],
        [1, E(-110)],
        [2, E(-110)],
      ],
      expected: [true, true, false],
    },
  ],
  'rule 3: an empty list reports every scan': [
    {
      name: 'same value',
      events: [],
      steps: [
        [0, 1],
        [1, 1],
        [2, 1],
      ],
      expected: [true, true, true],
    },
    {
      name: 'same error',
      events: [],
      steps: [
        [0, E(-5)],
        [1, E(-5)],
      ],
      expected: [true, true],
    },
  ],
  'rule 4: change': [
    {
      name: 'numbers',
      events: [change],
      steps: [
        [0, 1],
        [1, 1],
        [2, 2],
        [3, 2],
        [4, 1],
      ],
      expected: [true, false, true, false, true],
    },
    {
      name: 'NaN equals NaN',
      events: [change],
      steps: [
        [0, NaN],
        [1, NaN],
        [2, 0],
      ],
      expected: [true, false, true],
    },
    {
      name: 'booleans',
      events: [change],
      steps: [
        [0, false],
        [1, false],
        [2, true],
      ],
      expected: [true, false, true],
    },
    {
      name: 'strings',
      events: [change],
      steps: [
        [0, 'a'],
        [1, 'a'],
        [2, 'b'],
      ],
      expected: [true, false, true],
    },
    {
      name: 'location: any field differs',
      events: [change],
      steps: [
        [0, { lat: 1, lon: 2, sats: 5 }],
        [1, { lat: 1, lon: 2, sats: 5 }],
        [2, { lat: 1, lon: 2, sats: 6 }],
        [3, { lat: 1, lon: 2 }],
      ],
      expected: [true, false, true, true],
    },
  ],
  'rule 5: delta, from the last reported value': [
    {
      name: 'creeping change accumulates',
      events: [delta(1)],
      steps: [
        [0, 10],
        [1, 10.4],
        [2, 10.8],
        [3, 11],
        [4, 11.5],
        [5, 9.9],
      ],
      expected: [true, false, false, true, false, true],
    },
    {
      name: 'booleans: any change',
      events: [delta(5)],
      steps: [
        [0, true],
        [1, true],
        [2, false],
      ],
      expected: [true, false, true],
    },
    {
      name: 'location: great-circle metres',
      events: [delta(10)],
      // 0.0001 deg of latitude is ~11.1 m; 0.00005 is ~5.6 m.
      steps: [
        [0, { lat: 52, lon: 4 }],
        [1, { lat: 52.00005, lon: 4 }],
        [2, { lat: 52.0001, lon: 4 }],
        [3, { lat: 52.0001, lon: 4, sats: 9 }],
      ],
      expected: [true, false, true, false],
    },
    {
      name: 'location: fix appears',
      events: [delta(10)],
      steps: [
        [0, { sats: 0 }],
        [1, { lat: 1, lon: 1 }],
      ],
      expected: [true, true],
    },
  ],
  'rule 6: interval, from the last report': [
    {
      name: 'steady value',
      events: [interval(1000)],
      steps: [
        [0, 1],
        [500, 1],
        [999, 1],
        [1000, 1],
        [1999, 1],
        [2000, 1],
      ],
      expected: [true, false, false, true, false, true],
    },
    {
      name: 'repeats an error',
      events: [interval(1000)],
      steps: [
        [0, E(-5)],
        [500, E(-5)],
        [1000, E(-5)],
      ],
      expected: [true, false, true],
    },
  ],
  'rule 7: threshold with hysteresis (Schmitt trigger)': [
    {
      name: 'rising and falling crossings',
      events: [threshold(100, 5)],
      steps: [
        [0, 90],
        [1, 99],
        [2, 100],
        [3, 101],
        [4, 97],
        [5, 95],
        [6, 94],
        [7, 100],
      ],
      expected: [true, false, true, false, false, true, false, true],
    },
    {
      // The letter of rule 7 with hysteresis 0: a value exactly at the threshold is both
      // ">= threshold" (rising) and "<= threshold - 0" (falling), so it toggles each scan.
      name: 'no hysteresis: the letter of the rule',
      events: [threshold(10, 0)],
      steps: [
        [0, 9],
        [1, 10],
        [2, 10],
        [3, 9.99],
        [4, 11],
        [5, 12],
      ],
      expected: [true, true, true, false, true, false],
    },
    {
      name: 'arm moves on unreported scans too',
      events: [threshold(10, 2), interval(100000)],
      steps: [
        [0, 5],
        [1, 12],
        [2, 5],
        [3, 12],
      ],
      expected: [true, true, true, true],
    },
    {
      name: 'does not apply to locations',
      events: [threshold(0, 0)],
      steps: [
        [0, { lat: -1, lon: 0 }],
        [1, { lat: 1, lon: 0 }],
      ],
      expected: [true, false],
    },
  ],
  'rule 8: events combine with OR, one report per scan, each report resets': [
    {
      name: 'delta or interval',
      events: [delta(1), interval(1000)],
      steps: [
        [0, 0],
        [100, 2],
        [200, 2.5],
        [1099, 2.5],
        [1100, 2.5],
        [1200, 3.6],
      ],
      expected: [true, true, false, false, true, true],
    },
    {
      name: 'change resets the interval',
      events: [change, interval(1000)],
      steps: [
        [0, 0],
        [900, 1],
        [1000, 1],
        [1900, 1],
      ],
      expected: [true, true, false, true],
    },
  ],
};

describe('transmit events (decisions 3)', () => {
  for (const [rule, rows] of Object.entries(tables)) {
    describe(rule, () => {
      for (const row of rows) it(row.name, () => run(row));
    });
  }

  it('reset() makes the next sample report again (rule 1 after a configuration change)', () => {
    const decider = new TransmitDecider([change]);
    assert.equal(decider.decide({ ok: true, value: 1 }, 0), true);
    assert.equal(decider.decide({ ok: true, value: 1 }, 1), false);
    decider.reset();
    assert.equal(decider.decide({ ok: true, value: 1 }, 2), true);
  });

  it('keeps its own copy of a reported Location (drivers reuse objects)', () => {
    const decider = new TransmitDecider([change]);
    const reused: Location = { lat: 1, lon: 1 };
    assert.equal(decider.decide({ ok: true, value: reused }, 0), true);
    reused.lat = 2;
    assert.equal(decider.decide({ ok: true, value: reused }, 1), true);
    assert.equal(decider.decide({ ok: true, value: reused }, 2), false);
  });
});
