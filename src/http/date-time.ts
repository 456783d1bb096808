/**
 * RFC 3339 date-times as requests may send them (`format: date-time`): `2026-11-28T09:30:00Z`,
 * with optional fractions of a second and a `Z` or `±hh:mm` offset, each field in its range
 * (no 30 February, no leap second: JavaScript's Date would roll either over into another time).
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/i;

export function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = match.slice(1).map((part) => Number(part ?? 0));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59;
}
