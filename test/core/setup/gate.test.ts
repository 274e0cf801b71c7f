/** The setup code's gate (decisions 11): 401, then 429 with a growing Retry-After after 5 wrong codes. */
import { CodeGate, FreeAttempts, setupCode } from '../../../src/setup/gate.js';
import { FakeClock } from '../../fakes/fake-clock.js';
import { assert } from '../../support/assert.js';

describe('setup code gate', () => {
  it('opens for the right code only, with or without spaces around it', () => {
    const gate = new CodeGate('ABCD2345', new FakeClock());
    assert.deepEqual(gate.check('Bearer ABCD2345'), { open: true });
    assert.deepEqual(gate.check('bearer  ABCD2345 '), { open: true });
    for (const wrong of [undefined, '', 'ABCD2345', 'Bearer', 'Bearer ABCD234', 'Bearer ABCD23456', 'Basic ABCD2345'])
      assert.deepEqual(
        new CodeGate('ABCD2345', new FakeClock()).check(wrong),
        { open: false, status: 401 },
        String(wrong),
      );
  });

  it('answers 429 with a Retry-After (the window it sets, at least 1 s) that grows with each attempt after 5 wrong codes', () => {
    const clock = new FakeClock();
    const gate = new CodeGate('ABCD2345', clock);
    for (let i = 0; i < FreeAttempts; i++) assert.deepEqual(gate.check('Bearer WRONG'), { open: false, status: 401 });
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const outcome = gate.check('Bearer ABCD2345');
      assert.ok(!outcome.open && outcome.status === 429, JSON.stringify(outcome));
      waits.push(outcome.retryAfterS);
    }
    assert.deepEqual(waits, [2, 4, 8, 16]);
    // Once the window passed, the right code opens.
    clock.advance(16_000);
    assert.deepEqual(gate.check('Bearer ABCD2345'), { open: true });
  });

  it('a wrong code after the window is 401 and blocks again for longer', () => {
    const clock = new FakeClock();
    const gate = new CodeGate('ABCD2345', clock);
    for (let i = 0; i < FreeAttempts; i++) gate.check('Bearer WRONG');
    clock.advance(1_000);
    assert.deepEqual(gate.check('Bearer WRONG'), { open: false, status: 401 });
    const next = gate.check('Bearer WRONG');
    assert.ok(!next.open && next.status === 429 && next.retryAfterS === 4, JSON.stringify(next));
  });
});

describe('setup code', () => {
  it('takes 8 characters of an unambiguous alphabet from the random bytes given', () => {
    let n = 0;
    const code = setupCode((count) => Uint8Array.from({ length: count }, () => n++ % 256));
    assert.match(code, /^[A-HJKMNP-Z2-9]{8}$/);
    assert.equal(code, 'ABCDEFGH');
  });

  it('skips bytes that would bias the alphabet', () => {
    const code = setupCode((count) => Uint8Array.from({ length: count }, (_, i) => (i % 2 === 0 ? 255 : 1)), 4);
    assert.equal(code, 'BBBB');
  });
});
