/**
 * What a pet's ETag is: `"<id>-<version>"`. The version changes with every update, so the tag
 * is strong (it changes whenever the representation may have); the id makes a tag meaningless
 * for any other pet, so a client that mixes up two pets' tags gets 412 rather than a write.
 */
import { type IfMatch, strongEtag } from '../http/if-match.js';
import type { ChangeCondition } from './pets.service.js';

const PET_TAG = /^([1-9]\d{0,15})-([1-9]\d{0,15})$/;

export function petEtag(pet: { id: number; version: number }): string {
  return strongEtag(`${pet.id}-${pet.version}`);
}

/**
 * The versions of pet `petId` an If-Match condition accepts: undefined for no condition (no
 * header, or `*`, which any existing pet meets), else the versions its strong tags name for this
 * pet; empty when none does, so no version matches.
 */
export function versionsAccepted(ifMatch: IfMatch | undefined, petId: number): number[] | undefined {
  if (!ifMatch || ifMatch.any) return undefined;
  const versions = new Set<number>();
  for (const tag of ifMatch.strongTags) {
    const [, id, version] = PET_TAG.exec(tag) ?? [];
    if (Number(id) === petId && Number.isSafeInteger(Number(version))) versions.add(Number(version));
  }
  return [...versions];
}

/** The change condition an If-Match header sets on pet `petId` (none without the header or with `*`). */
export function changeConditionOf(ifMatch: IfMatch | undefined, petId: number): ChangeCondition {
  const versions = versionsAccepted(ifMatch, petId);
  if (!ifMatch || ifMatch.any || ifMatch.weakTags === 0) return { versions };
  return { versions, weakTags: ifMatch.strongTags.length === 0 ? 'only' : 'also' };
}
