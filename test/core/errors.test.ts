import { errnoName } from '../../src/errno.js';
import { AgentError, isAgentError, logFailure, messageOf, toAgentError } from '../../src/errors.js';
import { FakeLogger } from '../fakes/fake-logger.js';
import { assert } from '../support/assert.js';

describe('errors', () => {
  it('logs a failure with its fields, then the reason', () => {
    const logger = new FakeLogger();
    logFailure(logger, 'warn', 'config: not cached', new AgentError('store', 'store: full'), { key: 'agent/channels' });
    logFailure(logger, 'error', 'device: not read', 'gone');
    assert.deepEqual(
      logger.lines.map((l) => [l.level, l.message, l.fields]),
      [
        ['warn', 'config: not cached', { key: 'agent/channels', reason: 'store: full' }],
        ['error', 'device: not read', { reason: 'gone' }],
      ],
    );
  });

  it('carries code, status, errno and a cause given in the options (ES2022 Error cause)', () => {
    const inner = new Error('socket reset');
    const e = new AgentError('http.status', 'service: 503', { status: 503, errno: -5, cause: inner });
    assert.deepEqual(
      [e.name, e.code, e.message, e.status, e.errno],
      ['AgentError', 'http.status', 'service: 503', 503, -5],
    );
    assert.equal(e.cause, inner);
    assert.ok(e instanceof Error);
    const bare = new AgentError('closed', 'hub: closed');
    assert.deepEqual([bare.status, bare.errno, bare.cause], [undefined, undefined, undefined]);
  });

  it('tells AgentErrors by code and wraps anything else as internal, keeping the cause', () => {
    const e = new AgentError('timeout', 'x');
    assert.ok(isAgentError(e) && isAgentError(e, 'timeout') && !isAgentError(e, 'network'));
    assert.ok(!isAgentError(new Error('x')));
    assert.equal(toAgentError(e), e);
    const plain = new TypeError('boom');
    const wrapped = toAgentError(plain);
    assert.deepEqual([wrapped.code, wrapped.message, wrapped.cause], ['internal', 'boom', plain]);
    assert.equal(toAgentError('text').message, 'text');
  });

  it('gives any thrown value the message toAgentError would, without making an error', () => {
    const thrown = [new AgentError('timeout', 'late'), new TypeError('boom'), 'text', 42, undefined, { a: 1 }];
    assert.deepEqual(
      thrown.map((e) => messageOf(e)),
      ['late', 'boom', 'text', '42', 'undefined', '[object Object]'],
    );
    assert.deepEqual(
      thrown.map((e) => messageOf(e)),
      thrown.map((e) => toAgentError(e).message),
    );
  });

  it('names errno values, and prints unknown ones as E<n>', () => {
    assert.deepEqual([errnoName(-110), errnoName(-5), errnoName(-7)], ['ETIMEDOUT', 'EIO', 'E7']);
  });
});
