/**
 * Parses the HTTP `Date` header (RFC 9110 section 5.6.7, IMF-fixdate:
 * `Sun, 06 Nov 1994 08:49:37 GMT`) without `Date.parse`, whose handling of
 * non-ISO strings differs between engines (XS, V8). The obsolete RFC 850 and
 * asctime forms are accepted too, since RFC 9110 asks recipients to.
 */

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const imfFixdate = /^[A-Za-z]{3}, (\d{2}) ([A-Za-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const rfc850 = /^[A-Za-z]+, (\d{2})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const asctime = /^[A-Za-z]{3} ([A-Za-z]{3}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

function build(
  day: string,
  monthName: string,
  year: number,
  hour: string,
  minute: string,
  second: string,
): number | undefined {
  const month = (months as readonly string[]).indexOf(monthName);
  if (month < 0) return undefined;
  const d = Number(day);
  const h = Number(hour);
  const m = Number(minute);
  const s = Number(second);
  if (d < 1 || d > 31 || h > 23 || m > 59 || s > 60) return undefined;
  return Date.UTC(year, month, d, h, m, s);
}

/** Unix milliseconds of an HTTP date, or `undefined` when the text is not one. */
export function parseHttpDate(text: string): number | undefined {
  const t = text.trim();
  let m = imfFixdate.exec(t);
  if (m !== null) return build(m[1] ?? '', m[2] ?? '', Number(m[3]), m[4] ?? '', m[5] ?? '', m[6] ?? '');
  m = rfc850.exec(t);
  if (m !== null) {
    // Two-digit years: RFC 9110 says interpret as the most recent past year with those digits;
    // a device reading this is after 2020, so 20xx.
    return build(m[1] ?? '', m[2] ?? '', 2000 + Number(m[3]), m[4] ?? '', m[5] ?? '', m[6] ?? '');
  }
  m = asctime.exec(t);
  if (m !== null) return build(m[2] ?? '', m[1] ?? '', Number(m[6]), m[3] ?? '', m[4] ?? '', m[5] ?? '');
  return undefined;
}
