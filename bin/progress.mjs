// Progress for the commands' waits longer than a second (the first build after install, a bundle):
// one line on standard error, redrawn each second with the time spent, only when standard error is a
// terminal (a pipe or a CI log gets nothing, so output stays clean). Nothing is drawn before the first
// second has passed, so a quick step stays silent.

/**
 * Starts showing `what` (e.g. `building`) with the seconds spent; returns the function that ends it,
 * clearing the line (or leaving `done` in its place). `stream` is injectable for tests.
 */
export function progress(what, stream = process.stderr) {
  if (stream.isTTY !== true) return () => undefined;
  const started = Date.now();
  let drawn = false;
  const draw = () => {
    drawn = true;
    stream.write(`\r\x1b[2K${what} ... ${Math.round((Date.now() - started) / 1000)} s`);
  };
  const timer = setInterval(draw, 1000);
  timer.unref();
  return (done) => {
    clearInterval(timer);
    if (drawn) stream.write(`\r\x1b[2K${done === undefined ? '' : `${done}\n`}`);
    else if (done !== undefined) stream.write(`${done}\n`);
  };
}
