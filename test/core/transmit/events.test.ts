/**
 * decisions.md section 3, rules 5 to 8 (delta, interval, threshold with
 * hysteresis, several events), one table per rule.
 */
import { change, delta, E, interval, runTables, threshold, type Row } from './table.js';

const tables: Record<string, Row[]> = {
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

describe('transmit events (decisions 3), rules 5 to 8', () => {
  runTables(tables);
});
