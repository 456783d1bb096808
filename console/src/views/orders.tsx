/**
 * Orders: the listing by status, "Place order" for an animal, and on each order only the actions
 * the store's state machine allows from its status ("Approve order", "Deliver order", "Cancel
 * order"), with the status each order's animal has now.
 */
import { useEffect, useState } from 'preact/hooks';
import { ORDER_ACTIONS, ORDER_STATUSES, ORDER_TRANSITIONS, type OrderAction } from '../../../src/orders/orders.state-machine.js';
import { answer, newIdempotencyKey, type Order, type Pet } from '../api.js';
import { Field, Loading, Problem, ScopedButton } from '../components.js';
import { Pager, placeOf, StatusFilter, usePage } from '../listing.js';
import { Link, usePlace } from '../router.js';
import { useSession } from '../session.js';

const PAGE_SIZE = 25;

const ACTION_NAMES: Record<OrderAction, string> = { approve: 'Approve order', deliver: 'Deliver order', cancel: 'Cancel order' };

/** The actions the state machine allows on an order in `status`. */
function actionsFor(status: Order['status']): OrderAction[] {
  return ORDER_ACTIONS.filter((action) => (ORDER_TRANSITIONS[action].from as readonly string[]).includes(status));
}

export function OrdersView() {
  const { client } = useSession();
  const { query } = usePlace();
  const status = query.get('status') ?? '';
  const cursor = query.get('cursor') ?? undefined;
  const [petStatuses, setPetStatuses] = useState<Map<number, Pet['status']>>(new Map());
  const [notice, setNotice] = useState('');
  const [actionError, setActionError] = useState<unknown>(undefined);
  const { page, error, reload } = usePage<Order>(
    (signal) =>
      answer(
        client.raw.GET('/store/orders', {
          params: { query: { limit: PAGE_SIZE, ...(status ? { status: status as Order['status'] } : {}), ...(cursor ? { cursor } : {}) } },
          signal,
        }),
      ),
    [client, status, cursor],
  );

  // The animals of this page, in one call, for their status now.
  useEffect(() => {
    const ids = [...new Set(page?.items.map((order) => order.petId))];
    if (ids.length === 0) return;
    const controller = new AbortController();
    answer(client.raw.GET('/pets', { params: { query: { id: ids, limit: 100 } }, signal: controller.signal }))
      .then(({ data }) => setPetStatuses(new Map(data.map((pet) => [pet.id, pet.status]))))
      .catch(() => setPetStatuses(new Map()));
    return () => controller.abort();
  }, [page]);

  const act = async (order: Order, action: OrderAction) => {
    setActionError(undefined);
    try {
      const { data } = await answer(
        client.raw.POST(`/store/orders/{orderId}/${action}`, { params: { path: { orderId: order.id } }, headers: { 'idempotency-key': newIdempotencyKey() } }),
      );
      setNotice(`Order ${data.id} is ${data.status}.`);
      reload();
    } catch (caught) {
      setActionError(caught);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Orders</h1>
      <PlaceOrder
        onPlaced={(order) => {
          setNotice(`Order ${order.id} placed for animal ${order.petId}.`);
          reload();
        }}
      />
      <p class="notice" role="status">
        {notice}
      </p>
      <Problem error={actionError} />
      <StatusFilter label="Status" any="Any status" values={ORDER_STATUSES} value={status} place={(value) => placeOf('/orders', { status: value })} />
      <Problem error={error} />
      {!page && !error && <Loading what="orders" />}
      {page && (
        <>
          <div class="table-wrap">
            <table>
              <caption>{page.items.length === 0 ? 'No order matches.' : `Orders, ${cursor ? 'a later' : 'the first'} page`}</caption>
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Animal</th>
                  <th scope="col">Status</th>
                  <th scope="col">Animal status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((order) => (
                  <tr key={order.id}>
                    <td>{order.id}</td>
                    <td>
                      <Link to={`/animals/${order.petId}`}>{`Animal ${order.petId}`}</Link>
                    </td>
                    <td>{order.status}</td>
                    <td>{petStatuses.get(order.petId) ?? ''}</td>
                    <td class="row-actions">
                      {actionsFor(order.status).map((action) => (
                        <ScopedButton key={action} scope="orders:write" class={action === 'cancel' ? 'secondary' : ''} onClick={() => void act(order, action)}>
                          {ACTION_NAMES[action]}
                        </ScopedButton>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager cursor={cursor} next={page.next} place={(at) => placeOf('/orders', { status, cursor: at })} />
        </>
      )}
    </>
  );
}

/** "Place order": an order for the animal of the id given. */
function PlaceOrder(props: { onPlaced: (order: Order) => void }) {
  const { client } = useSession();
  const [petId, setPetId] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const place = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      const body = { petId: /^\d+$/.test(petId.trim()) ? Number(petId.trim()) : petId } as { petId: number };
      const { data } = await answer(client.raw.POST('/store/orders', { body, headers: { 'idempotency-key': newIdempotencyKey() } }));
      setPetId('');
      props.onPlaced(data);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <form class="panel inline-form" onSubmit={(event) => void place(event)} noValidate>
      <Field label="Animal ID">
        {({ id }) => <input id={id} inputMode="numeric" value={petId} onInput={(event) => setPetId(event.currentTarget.value)} />}
      </Field>
      <ScopedButton scope="orders:write" type="submit">
        Place order
      </ScopedButton>
      <Problem error={error} />
    </form>
  );
}
