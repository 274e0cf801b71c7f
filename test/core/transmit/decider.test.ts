/**
 * decisions.md section 3, rules 1 to 4 (first sample, value/error transitions,
 * empty list, change), one table per rule; and the decider's own contract.
 */
import type { Location } from '../../../src/agent/driver.js';
import { TransmitDecider } from '../../../src/transmit/decider.js';
import { assert } from '../../support/assert.js';
import { change, delta, E, runTables, threshold, type Row } from './table.js';

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
};

describe('transmit events (decisions 3), rules 1 to 4', () => {
  runTables(tables);

  it('keeps its own copy of a reported Location (drivers reuse objects)', () => {
    const decider = new TransmitDecider([change]);
    const reused: Location = { lat: 1, lon: 1 };
    assert.equal(decider.decide({ ok: true, value: reused }, 0), true);
    reused.lat = 2;
    assert.equal(decider.decide({ ok: true, value: reused }, 1), true);
    assert.equal(decider.decide({ ok: true, value: reused }, 2), false);
  });
});
