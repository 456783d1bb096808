/**
 * What the Webhooks and API keys views share: a secret the API answers once, with "Copy", the
 * API's times in the reader's words, and the heading of a panel that takes the focus as it appears.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

/**
 * A secret the API answers once (a new API key, a webhook endpoint's signing secret): shown in a
 * read-only field with "Copy", and said to be shown only now. Copying uses the Clipboard API where
 * the page may (https, localhost); elsewhere the text is selected for the person to copy.
 */
export function ShownOnce(props: { label: string; value: string; children?: ComponentChildren }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied('Copied.');
    } catch {
      field.current?.select();
      setCopied('Selected: copy it with the keyboard (Ctrl+C or ⌘C).');
    }
  };
  return (
    <div class="shown-once">
      <div class="field">
        <label for={id}>{props.label}</label>
        <p class="hint">{props.children ?? 'Shown only now: store it before you leave this page.'}</p>
        <div class="copy-row">
          <input id={id} ref={field} readOnly value={props.value} spellcheck={false} autocomplete="off" onFocus={(event) => event.currentTarget.select()} />
          <button type="button" onClick={() => void copy()}>
            Copy
          </button>
        </div>
      </div>
      <p class="notice" role="status">
        {copied}
      </p>
    </div>
  );
}

/** A time from the API in the reader's own words, the exact value kept in `datetime`; `none` (or "never") for null. */
export function Time(props: { value: string | null | undefined; none?: string }) {
  if (!props.value) return <>{props.none ?? 'never'}</>;
  return <time dateTime={props.value}>{new Date(props.value).toLocaleString()}</time>;
}

/**
 * The heading of a panel that just appeared (a form, a secret shown once): it takes the focus once,
 * when it appears, so a screen reader announces it; not again when the view around it renders.
 */
export function ArrivingHeading(props: { id: string; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <h2 id={props.id} tabIndex={-1} ref={heading}>
      {props.children}
    </h2>
  );
}
