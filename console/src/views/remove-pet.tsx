/** "Remove", then "Confirm": an animal is removed only once the person confirmed it. */
import { answer, type Pet } from '../api.js';
import { ConfirmButton } from '../components.js';
import { useSession } from '../session.js';

export function RemovePet(props: { pet: Pet; onRemoved: () => void }) {
  const { client } = useSession();
  const remove = async () => {
    await answer(client.raw.DELETE('/pets/{petId}', { params: { path: { petId: props.pet.id } } }));
    props.onRemoved();
  };
  return <ConfirmButton scope="pets:write" label="Remove" question={`Remove ${props.pet.name}?`} onConfirm={remove} />;
}
