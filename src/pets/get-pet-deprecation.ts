/**
 * getPet's deprecation, stated once: its two dates, and everything built from them that a client
 * sees (the header values every answer carries, the 410 message after the sunset, the words the
 * OpenAPI document and the README use). The route, the error examples and the API description
 * all read these; test/published-facts.test.ts holds the README and docs/ to them.
 *
 * getPet was published already deprecated: the interface 1.0.0 of 2026-11-25 marks it so. That
 * publication is its deprecation date; its removal date is fixed by the interface.
 */

/** Month names for prose dates, in English whatever the process's locale. */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const GET_PET_DEPRECATED_AT = new Date('2026-11-25T00:00:00Z');
export const GET_PET_SUNSET_AT = new Date('2030-12-05T00:00:00Z');
/** Where the notice is read: the operation in the browsable documentation. */
const DEPRECATION_NOTICE_URL = '/docs#/pets/getPet';
/** The operation that replaces getPet, and how to call it for one animal. */
const GET_PET_SUCCESSOR = '/v1/pets';
export const GET_PET_REPLACEMENT = 'GET /v1/pets?id={petId}';

/** The header values every answer of getPet carries, errors included (RFC 9745, RFC 8594, RFC 8288). */
export const GET_PET_DEPRECATION_HEADERS = {
  Deprecation: `@${GET_PET_DEPRECATED_AT.getTime() / 1000}`,
  Sunset: GET_PET_SUNSET_AT.toUTCString(),
  Link: `<${GET_PET_SUCCESSOR}>; rel="successor-version", <${DEPRECATION_NOTICE_URL}>; rel="deprecation"; type="text/html"`,
} as const;

/** What getPet answers (410 `operation_removed`) from the sunset instant on. */
export const GET_PET_REMOVED_MESSAGE = `GET /v1/pets/{petId} was removed on ${isoDayOf(GET_PET_SUNSET_AT)}; use ${GET_PET_REPLACEMENT}`;

/** The days as prose writes them: `2026-11-25` and `5 December 2030`. */
export const GET_PET_DEPRECATED_DAY = isoDayOf(GET_PET_DEPRECATED_AT);
export const GET_PET_SUNSET_DAY = proseDayOf(GET_PET_SUNSET_AT);

function isoDayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `5 December 2030`, in UTC, whatever the process's locale and ICU data. */
function proseDayOf(date: Date): string {
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}
