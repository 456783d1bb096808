/**
 * Animals: the listing with its status filter, name search and paging by the API's cursors (the
 * filters and the cursor are in the address, so a reload shows the same page), "Add animal", and
 * "Edit" and "Remove" on each row.
 */
import { useRef, useState } from 'preact/hooks';
import { answer, type Pet } from '../api.js';
import { Field, Loading, Problem, ScopedButton } from '../components.js';
import { Pager, placeOf, StatusFilter, usePage } from '../listing.js';
import { PET_STATUSES } from '../pets.js';
import { Link, navigate, usePlace } from '../router.js';
import { useSession } from '../session.js';
import { PetForm } from './pet-form.js';
import { RemovePet } from './remove-pet.js';

const PAGE_SIZE = 25;
/** How long typing may pause before the name search runs. */
const SEARCH_PAUSE_MS = 250;

const placeOfAnimals = (filters: { status: string; name: string; cursor?: string | undefined }) => placeOf('/animals', filters);

export function AnimalsView() {
  const { client } = useSession();
  const { query } = usePlace();
  const status = query.get('status') ?? '';
  const name = query.get('name') ?? '';
  const cursor = query.get('cursor') ?? undefined;
  const [nameInput, setNameInput] = useState(name);
  const [form, setForm] = useState<{ kind: 'add' } | { kind: 'edit'; petId: number } | undefined>(undefined);
  const [notice, setNotice] = useState('');
  const searchTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { page, error, reload } = usePage<Pet>(
    (signal) =>
      answer(
        client.raw.GET('/pets', {
          params: {
            query: { limit: PAGE_SIZE, ...(status ? { status: status as Pet['status'] } : {}), ...(name ? { name } : {}), ...(cursor ? { cursor } : {}) },
          },
          signal,
        }),
      ),
    [client, status, name, cursor],
  );

  const filterBy = (filters: { status: string; name: string }) => navigate(placeOfAnimals(filters), { replace: true });
  const searchName = (text: string) => {
    setNameInput(text);
    clearTimeout(searchTimer.current);
    searchTimer.current = setTimeout(() => filterBy({ status, name: text }), SEARCH_PAUSE_MS);
  };
  const saved = (pet: Pet) => {
    setNotice(form?.kind === 'add' ? `Added ${pet.name} (id ${pet.id}).` : `Saved ${pet.name} (id ${pet.id}).`);
    setForm(undefined);
    reload();
  };

  return (
    <>
      <div class="title-row">
        <h1 tabIndex={-1}>Animals</h1>
        <ScopedButton scope="pets:write" onClick={() => setForm({ kind: 'add' })}>
          Add animal
        </ScopedButton>
      </div>
      {form && <PetForm key={form.kind === 'edit' ? form.petId : 'add'} mode={form} onSaved={saved} onCancel={() => setForm(undefined)} />}
      <p class="notice" role="status">
        {notice}
      </p>
      <StatusFilter label="Status" any="Any status" values={PET_STATUSES} value={status} place={(value) => placeOfAnimals({ status: value, name })}>
        <Field label="Search by name">
          {({ id }) => <input id={id} type="search" value={nameInput} onInput={(event) => searchName(event.currentTarget.value)} />}
        </Field>
      </StatusFilter>
      <Problem error={error} />
      {!page && !error && <Loading what="animals" />}
      {page && (
        <>
          <div class="table-wrap">
            <table>
              <caption>{page.items.length === 0 ? 'No animal matches.' : `Animals, ${cursor ? 'a later' : 'the first'} page`}</caption>
              <thead>
                <tr>
                  <th scope="col">ID</th>
                  <th scope="col">Name</th>
                  <th scope="col">Category</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((pet) => (
                  <tr key={pet.id}>
                    <td>{pet.id}</td>
                    <td>
                      <Link to={`/animals/${pet.id}`}>{pet.name}</Link>
                    </td>
                    <td>{pet.categoryId}</td>
                    <td>{pet.status}</td>
                    <td class="row-actions">
                      <ScopedButton scope="pets:write" class="secondary" onClick={() => setForm({ kind: 'edit', petId: pet.id })}>
                        Edit
                      </ScopedButton>
                      <RemovePet
                        pet={pet}
                        onRemoved={() => {
                          setNotice(`Removed ${pet.name} (id ${pet.id}).`);
                          reload();
                        }}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager cursor={cursor} next={page.next} place={(at) => placeOfAnimals({ status, name, cursor: at })} />
        </>
      )}
    </>
  );
}
