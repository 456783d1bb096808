/** The OpenAPI prose of changing and removing animals, kept apart so the routes read at a glance. */
import { header } from '../http/responses.js';

export const ETAG_HEADER = {
  ETag: header(
    'Strong entity tag of this state of the animal, `"<id>-<version>"` (the version grows by one at each change). Send it back in `If-Match` to change or remove the animal only if nobody changed it since.',
  ),
};

export const IF_MATCH_HEADER =
  'Change only the state you read: the `ETag` of the animal as you last received it (quotes included), or a comma-separated list of them, or `*`. When the animal has changed since, the answer is 412 `precondition_failed` and nothing changes. Weak tags (`W/"…"`) never match. Without `If-Match` the request applies to whatever the animal is now. A malformed value, or more than 100 tags, is 400.';

const CONDITIONAL = `**Lost updates.** Send the \`ETag\` you received (from \`createPet\`, \`getPet\` or an earlier change) in \`If-Match\`: the check and the write are one atomic step, so of two clients changing the same state, exactly one succeeds and the other gets 412 \`precondition_failed\`. Without \`If-Match\` the request applies unconditionally (last write wins). A missing animal is 404 whatever \`If-Match\` says.`;

export const UPDATE_PET_DESCRIPTION = `Changes an animal with a JSON Merge Patch (RFC 7396): send only the fields to change, as \`application/merge-patch+json\` (or \`application/json\`). Answers the whole animal as it now is, with its new \`ETag\`.

**Strictness.** As for \`createPet\`: no type is converted, an unknown field is refused by name, \`id\` is refused (it never changes), an empty patch \`{}\` is refused, and \`null\` is refused for every field (a merge patch would remove the field, and every field of an animal is required).

**Status.** Any status may follow any other (\`available\`, \`pending\`, \`sold\`, in any order), except while the store's orders hold the animal: while it has an open order (\`placed\` or \`approved\`) a patch that changes its status answers 409 \`pet_has_open_order\`, and once a delivered order sold it, 409 \`pet_sold_by_order\`. Its name and category may still change, and a patch giving the status it already has is no change of status.

${CONDITIONAL}`;

export const DELETE_PET_DESCRIPTION = `Removes an animal for good. It then no longer appears in listings, and \`getPet\`, \`updatePet\` and \`deletePet\` answer 404 \`pet_not_found\` for its id (the service does not remember removed animals, so it answers 404 rather than 410). Its id is never given to another animal. While the animal has an open order (\`placed\` or \`approved\`) it cannot be removed: 409 \`pet_has_open_order\`; deliver or cancel the order first. Its closed orders stay readable, with its id as \`petId\`.

${CONDITIONAL}`;
