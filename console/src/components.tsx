/**
 * Pieces every view uses: a labelled field with its problem beside it, a refusal in words, a button
 * a scope may disable, and one that acts only once confirmed.
 */
import type { ButtonHTMLAttributes, ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { messageOf } from './api.js';
import { lackingScope, useSession } from './session.js';

/** A visible label, the control, and the API's message about this field right under it. */
export function Field(props: { label: string; problem?: string | undefined; children: (ids: { id: string; describedBy?: string }) => ComponentChildren }) {
  const id = useId();
  const problemId = `${id}-problem`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.children({ id, ...(props.problem ? { describedBy: problemId } : {}) })}
      {props.problem && (
        <p class="problem" id={problemId}>
          {props.problem}
        </p>
      )}
    </div>
  );
}

/** A refusal or failure, in words, announced to screen readers. */
export function Problem(props: { error: unknown; children?: ComponentChildren }) {
  if (props.error === undefined) return null;
  return (
    <div class="problem-box" role="alert">
      <p>{messageOf(props.error)}</p>
      {props.children}
    </div>
  );
}

/** A button that needs a scope: disabled, with the scope it lacks named beside it, when the key's scopes say so. */
export function ScopedButton(props: { scope: string } & ButtonHTMLAttributes<HTMLButtonElement>) {
  const { scope, children, ...rest } = props;
  const { identity } = useSession();
  const lacking = lackingScope(identity, scope);
  const noteId = useId();
  return (
    <>
      <button type="button" {...rest} disabled={Boolean(lacking) || Boolean(rest.disabled)} aria-describedby={lacking ? noteId : undefined}>
        {children}
      </button>
      {lacking && (
        <span class="scope-note" id={noteId}>
          {lacking}
        </span>
      )}
    </>
  );
}

/**
 * "Remove" (or "Revoke"), then "Confirm": `onConfirm` runs only once the person confirmed. Asked,
 * the focus goes to "Confirm", so a keyboard user answers at once; a refusal is shown in words.
 */
export function ConfirmButton(props: { scope: string; label: string; question: string; warning?: string; onConfirm: () => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  // A double click sends the action once: the second would answer "not found" for what the first removed.
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirm.current?.focus();
  }, [confirming]);

  const run = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(undefined);
    try {
      await props.onConfirm();
    } catch (caught) {
      setError(caught);
      setConfirming(false);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  if (!confirming)
    return (
      <>
        <ScopedButton scope={props.scope} class="secondary" onClick={() => setConfirming(true)}>
          {props.label}
        </ScopedButton>
        <Problem error={error} />
      </>
    );
  return (
    <span class="confirm" role="group" aria-label={props.question}>
      <span>{props.warning ? `${props.question} ${props.warning}` : props.question}</span>
      <button type="button" class="danger" onClick={() => void run()} disabled={busy} ref={confirm}>
        Confirm
      </button>
      <button type="button" class="secondary" onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </span>
  );
}

/** Where a view says it is loading, for sighted and screen-reader users alike. */
export function Loading(props: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {props.what}…
    </p>
  );
}
