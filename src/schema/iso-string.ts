// A Date as Date.prototype.toISOString writes it, for the years 1000–9999, built
// by hand: on Node 24 it takes half the time of toISOString (about 0.5 against
// 1 µs, measured in a loop of 500 dates), and the DateTime scalar writes one per
// cell of a page (500 on a page of GET /api/v2/translations, 400 on a page of keys).
// Other years, and invalid dates (which throw), are left to toISOString.

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

export function isoString(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  const ms = date.getUTCMilliseconds();
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(
    date.getUTCMinutes(),
  )}:${two(date.getUTCSeconds())}.${ms < 10 ? `00${ms}` : ms < 100 ? `0${ms}` : ms}Z`;
}
