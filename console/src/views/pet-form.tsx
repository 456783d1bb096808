/**
 * Adding an animal, or changing one: "Name", "Category", "Status" and "Save", with the API's
 * messages beside the field they concern. A change sends the ETag read with the animal in
 * If-Match; when someone else changed the animal meanwhile (412) nothing is overwritten, the form
 * says so and offers "Reload".
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { answer, ConsoleError, newIdempotencyKey, type Pet } from '../api.js';
import { Field, Loading, Problem } from '../components.js';
import { fieldProblems, FormActions, TextField } from '../forms.js';
import { loadPet, PET_STATUSES } from '../pets.js';
import { useSession } from '../session.js';

type Mode = { kind: 'add' } | { kind: 'edit'; petId: number };

interface Draft {
  name: string;
  category: string;
  status: Pet['status'];
}

/** The body field each form field stands for, as the API's `details` name them. */
const FIELDS = { name: 'body.name', category: 'body.categoryId', status: 'body.status' } as const;

function draftOf(pet: Pet): Draft {
  return { name: pet.name, category: String(pet.categoryId), status: pet.status };
}

/** Category as the API wants it: an integer when the text is one; anything else is sent as typed, and the API says what is wrong. */
function categoryValue(text: string): unknown {
  return /^\s*-?\d+\s*$/.test(text) ? Number(text) : text === '' ? undefined : text;
}

export function PetForm(props: { mode: Mode; onSaved: (pet: Pet) => void; onCancel: () => void }) {
  const { client } = useSession();
  const { mode } = props;
  const [draft, setDraft] = useState<Draft | undefined>(mode.kind === 'add' ? { name: '', category: '', status: 'available' } : undefined);
  const [etag, setEtag] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [conflict, setConflict] = useState(false);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const petId = mode.kind === 'edit' ? mode.petId : undefined;

  const reload = async () => {
    if (petId === undefined) return;
    setError(undefined);
    setConflict(false);
    try {
      const found = await loadPet(client, petId);
      setDraft(draftOf(found.pet));
      setEtag(found.etag);
    } catch (caught) {
      setError(caught);
    }
  };
  useEffect(() => {
    void reload().then(() => heading.current?.focus());
  }, [petId]);

  if (!draft) return error ? <Problem error={error} /> : <Loading what="the animal" />;

  const problems = fieldProblems(error, Object.values(FIELDS));

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const body = { name: draft.name, categoryId: categoryValue(draft.category), status: draft.status } as Pet;
    try {
      const saved =
        mode.kind === 'add'
          ? await answer(client.raw.POST('/pets', { body, headers: { 'idempotency-key': newIdempotencyKey() } }))
          : await answer(client.raw.PATCH('/pets/{petId}', { params: { path: { petId: mode.petId } }, body, headers: etag ? { 'if-match': etag } : {} }));
      props.onSaved(saved.data);
    } catch (caught) {
      if (caught instanceof ConsoleError && caught.code === 'precondition_failed') setConflict(true);
      else setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const title = mode.kind === 'add' ? 'Add animal' : `Edit animal ${mode.petId}`;
  return (
    <section class="panel" aria-labelledby="pet-form-title">
      <h2 id="pet-form-title" tabIndex={-1} ref={heading}>
        {title}
      </h2>
      <form onSubmit={(event) => void save(event)} noValidate>
        <TextField label="Name" problem={problems.at(FIELDS.name)} value={draft.name} onValue={(name) => setDraft({ ...draft, name })} />
        <TextField
          label="Category"
          inputMode="numeric"
          problem={problems.at(FIELDS.category)}
          value={draft.category}
          onValue={(category) => setDraft({ ...draft, category })}
        />
        <Field label="Status" problem={problems.at(FIELDS.status)}>
          {({ id, describedBy }) => (
            <select
              id={id}
              aria-describedby={describedBy}
              value={draft.status}
              onChange={(event) => setDraft({ ...draft, status: event.currentTarget.value as Pet['status'] })}
            >
              {PET_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          )}
        </Field>
        {conflict && (
          <div class="problem-box" role="alert">
            <p>Someone else changed this animal after you opened it, so your change was not saved. Reload it to see theirs, then edit again.</p>
            <button type="button" onClick={() => void reload()}>
              Reload
            </button>
          </div>
        )}
        <FormActions submit="Save" disabled={busy || conflict} problem={problems.unplaced} onCancel={props.onCancel} />
      </form>
    </section>
  );
}
