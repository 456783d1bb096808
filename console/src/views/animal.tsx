/** One animal's page (its own address, /console/animals/ID): the animal, "Edit", "Remove", and its orders. */
import { useEffect, useState } from 'preact/hooks';
import { answer, type Order, type Pet } from '../api.js';
import { Loading, Problem, ScopedButton } from '../components.js';
import { loadPet } from '../pets.js';
import { Link, navigate } from '../router.js';
import { useSession } from '../session.js';
import type { ViewProps } from '../views.js';
import { PetForm } from './pet-form.js';
import { RemovePet } from './remove-pet.js';

export function AnimalView(props: ViewProps) {
  const { client } = useSession();
  const petId = Number(props.params.id);
  const [pet, setPet] = useState<Pet | undefined>(undefined);
  const [orders, setOrders] = useState<Order[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [ordersError, setOrdersError] = useState<unknown>(undefined);
  const [editing, setEditing] = useState(false);
  const [loads, setLoads] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    loadPet(client, petId, signal)
      .then((found) => setPet(found.pet))
      .catch((caught: unknown) => signal.aborted || setError(caught));
    answer(client.raw.GET('/store/orders', { params: { query: { petId, limit: 100 } }, signal }))
      .then(({ data }) => setOrders(data))
      .catch((caught: unknown) => signal.aborted || setOrdersError(caught));
    return () => controller.abort();
  }, [client, petId, loads]);

  return (
    <>
      <p>
        <Link to="/animals">All animals</Link>
      </p>
      <h1 tabIndex={-1}>{pet ? pet.name : `Animal ${props.params.id}`}</h1>
      <Problem error={error} />
      {!pet && !error && <Loading what="the animal" />}
      {pet && (
        <>
          <dl class="facts">
            <dt>ID</dt>
            <dd>{pet.id}</dd>
            <dt>Category</dt>
            <dd>{pet.categoryId}</dd>
            <dt>Status</dt>
            <dd>{pet.status}</dd>
          </dl>
          <div class="actions">
            <ScopedButton scope="pets:write" onClick={() => setEditing(true)}>
              Edit
            </ScopedButton>
            <RemovePet pet={pet} onRemoved={() => navigate('/animals')} />
          </div>
          {editing && (
            <PetForm
              mode={{ kind: 'edit', petId }}
              onSaved={() => {
                setEditing(false);
                setLoads((count) => count + 1);
              }}
              onCancel={() => setEditing(false)}
            />
          )}
        </>
      )}
      <h2>Orders</h2>
      <Problem error={ordersError} />
      {orders && orders.length === 0 && <p>No order for this animal.</p>}
      {orders && orders.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption>Orders for this animal</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((order) => (
                <tr key={order.id}>
                  <td>{order.id}</td>
                  <td>{order.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
