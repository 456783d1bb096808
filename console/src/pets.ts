/** What the views know of animals: their statuses, and reading one with the ETag a change must send back. */
import { answer, type Client, type Pet } from './api.js';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const satisfies readonly Pet['status'][];
// Every status of the contract is listed: a new one fails the type check here.
const everyStatus: Record<Exclude<Pet['status'], (typeof PET_STATUSES)[number]>, never> = {};
void everyStatus;

/**
 * One animal and its ETag, for a change that must not overwrite someone else's. Only getPet
 * answers one animal with its ETag (the listing by `id` carries none), so the console uses it.
 */
export async function loadPet(client: Client, petId: number, signal?: AbortSignal): Promise<{ pet: Pet; etag: string | undefined }> {
  const { data, response } = await answer(client.raw.GET('/pets/{petId}', { params: { path: { petId } }, ...(signal ? { signal } : {}) }));
  return { pet: data, etag: response.headers.get('etag') ?? undefined };
}
