import { Redacted, RedactingLogger } from '../../../src/log/redact.js';
import { FakeLogger } from '../../fakes/fake-logger.js';
import { assert } from '../../support/assert.js';

describe('log/redact', () => {
  const token = 'device-token-demo-001';

  it('replaces a secret in messages and string fields, plain and URL-encoded', () => {
    const sink = new FakeLogger();
    const logger = new RedactingLogger(sink);
    logger.addSecret(token);
    logger.addSecret('conn/token+with=odd&chars');
    logger.log('info', `GET /x?token=${token} failed`, { header: `Bearer ${token}`, status: 401 });
    logger.log('warn', 'open ws://h/hubs/properties?id=conn%2Ftoken%2Bwith%3Dodd%26chars');
    const text = JSON.stringify(sink.lines);
    assert.ok(!text.includes(token), 'the token must not appear');
    assert.ok(!text.includes('conn%2Ftoken'), 'the encoded connection token must not appear');
    assert.equal(sink.lines[0]?.message, `GET /x?token=${Redacted} failed`);
    assert.equal(sink.lines[0]?.fields?.['header'], `Bearer ${Redacted}`);
    assert.equal(sink.lines[0]?.fields?.['status'], 401);
  });

  it('forgets removed secrets and ignores short ones', () => {
    const sink = new FakeLogger();
    const logger = new RedactingLogger(sink);
    logger.addSecret('abc');
    logger.addSecret('secret-connection');
    logger.removeSecret('secret-connection');
    logger.log('info', 'abc secret-connection');
    assert.equal(sink.lines[0]?.message, 'abc secret-connection');
  });

  it('never throws when the inner logger does', () => {
    const logger = new RedactingLogger({
      log() {
        throw new Error('broken sink');
      },
    });
    logger.log('error', 'still fine');
  });
});
