/** The Node logger's line format: level filter, quoted values, errno fields by name. */
import assert from 'node:assert/strict';
import { Errno } from '../../src/errno.js';
import { ConsoleLogger } from '../../targets/node/logger.js';

describe('node logger', () => {
  it('writes errno fields with their name, quotes values with spaces, and filters by level', () => {
    const lines: string[] = [];
    const logger = new ConsoleLogger('info', (line) => lines.push(line));
    logger.log('debug', 'not shown');
    logger.log('warn', 'desired value not applied', { key: 'dimmer', errno: Errno.ERANGE });
    logger.log('info', 'gps', { errno: Errno.ETIMEDOUT, reason: 'no fix', count: 3, errnoText: 'x' });
    logger.log('info', 'unknown', { errno: -71 });
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^\S+Z warn {2}desired value not applied key=dimmer errno="-34 ERANGE"$/);
    assert.match(lines[1]!, / info {2}gps errno="-110 ETIMEDOUT" reason="no fix" count=3 errnoText=x$/);
    assert.match(lines[2]!, / errno="-71 E71"$/);
  });
});
