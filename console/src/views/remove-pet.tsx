/** "Remove", then "Confirm": an animal is removed only once the person confirmed it. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { answer, type Pet } from '../api.js';
import { Problem, ScopedButton } from '../components.js';
import { useSession } from '../session.js';

export function RemovePet(props: { pet: Pet; onRemoved: () => void }) {
  const { client } = useSession();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const confirm = useRef<HTMLButtonElement>(null);
  // Asked, the focus goes to "Confirm", so a keyboard user answers at once.
  useEffect(() => {
    if (confirming) confirm.current?.focus();
  }, [confirming]);

  const remove = async () => {
    setError(undefined);
    try {
      await answer(client.raw.DELETE('/pets/{petId}', { params: { path: { petId: props.pet.id } } }));
      props.onRemoved();
    } catch (caught) {
      setError(caught);
      setConfirming(false);
    }
  };

  if (!confirming)
    return (
      <>
        <ScopedButton scope="pets:write" class="secondary" onClick={() => setConfirming(true)}>
          Remove
        </ScopedButton>
        <Problem error={error} />
      </>
    );
  return (
    <span class="confirm" role="group" aria-label={`Remove ${props.pet.name}?`}>
      <span>Remove {props.pet.name}?</span>
      <button type="button" class="danger" onClick={() => void remove()} ref={confirm}>
        Confirm
      </button>
      <button type="button" class="secondary" onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </span>
  );
}
