// Mocha's spec reporter, plus the plain closing line CI reads: 'Node: N passed, N failed, N skipped'.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- mocha loads reporters with require()
const Mocha = require('mocha');

class SpecWithTotals extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const s = runner.stats;
      console.log(`Node: ${s.passes} passed, ${s.failures} failed, ${s.pending} skipped`);
    });
  }
}

module.exports = SpecWithTotals;
