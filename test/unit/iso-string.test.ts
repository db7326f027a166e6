import { describe, expect, it } from 'vitest';
import { isoString } from '../../src/schema/iso-string.js';

describe('isoString (the DateTime scalar)', () => {
  it('writes what toISOString writes, for every kind of date', () => {
    const dates = [
      new Date(0),
      new Date('1000-01-01T00:00:00.000Z'),
      new Date('9999-12-31T23:59:59.999Z'),
      new Date('2026-12-01T03:04:05.006Z'),
      new Date('2026-02-28T13:14:15.120Z'),
      // Outside 1000–9999: toISOString's own forms (padded or signed years).
      new Date('0999-12-31T23:59:59.999Z'),
      new Date('+010000-01-01T00:00:00.000Z'),
      new Date('-000001-06-15T12:00:00.000Z'),
      new Date(8.64e15),
      new Date(-8.64e15),
    ];
    // A sweep over 40 years in uneven steps, every field and millisecond value visited.
    for (let t = Date.UTC(1990, 0, 1), i = 0; t < Date.UTC(2030, 0, 1); t += 3_723_001 * (1 + (i++ % 500)))
      dates.push(new Date(t));
    expect(dates.length).toBeGreaterThan(1000);
    for (const date of dates) expect(isoString(date)).toBe(date.toISOString());
  });

  it('throws for an invalid date, as toISOString does', () => {
    expect(() => isoString(new Date('not a date'))).toThrow(RangeError);
  });
});
