import { errnoName } from '../../src/errno.js';
import { AgentError, isAgentError, toAgentError } from '../../src/errors.js';
import { assert } from '../support/assert.js';

describe('errors', () => {
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

  it('names errno values, and prints unknown ones as E<n>', () => {
    assert.deepEqual([errnoName(-110), errnoName(-5), errnoName(-7)], ['ETIMEDOUT', 'EIO', 'E7']);
  });
});
