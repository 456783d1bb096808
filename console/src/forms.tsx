/**
 * What the console's forms share: the API's problems placed beside the field they name, a text
 * field with its label and problem, and a group of checkboxes with its problem.
 */
import type { InputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';
import { ConsoleError } from './api.js';
import { Field, Problem } from './components.js';

/**
 * The API's problems of a refusal, by field (`body.url`, also `body.events/0` for `body.events`):
 * `at(field)` is the message beside that field; `unplaced` is the refusal itself when some problem
 * names none of `fields` (or there is none), to be shown as a whole.
 */
export function fieldProblems(error: unknown, fields: readonly string[]): { at: (field: string) => string | undefined; unplaced: unknown } {
  const problems = error instanceof ConsoleError ? error.details : [];
  const concerns = (problem: { field: string }, field: string) => problem.field === field || problem.field.startsWith(`${field}/`);
  const placed = problems.length > 0 && problems.every((problem) => fields.some((field) => concerns(problem, field)));
  return {
    at: (field) =>
      problems
        .filter((problem) => concerns(problem, field))
        .map((problem) => problem.message)
        .join('; ') || undefined,
    unplaced: placed ? undefined : error,
  };
}

/** A labelled text input with the API's message about it right under it, named as its description. */
export function TextField(
  props: { label: string; problem: string | undefined; value: string; onValue: (value: string) => void } & Pick<
    InputHTMLAttributes<HTMLInputElement>,
    'inputMode' | 'spellcheck'
  > & { type?: 'text' | 'url' | 'datetime-local' },
) {
  const { label, problem, value, onValue, type, ...rest } = props;
  return (
    <Field label={label} problem={problem}>
      {({ id, describedBy }) => (
        <input
          {...rest}
          // Preact's types tell inputs apart by `type`; the attributes given here suit each type offered.
          {...({ type: type ?? 'text' } as InputHTMLAttributes<HTMLInputElement>)}
          id={id}
          aria-describedby={describedBy}
          aria-invalid={describedBy ? true : undefined}
          value={value}
          onInput={(event) => onValue(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/**
 * Checkboxes under a legend (event types, scopes), the API's message about the group under them;
 * an option `lacking(option)` names a reason for is disabled, the reason beside it.
 */
export function Choices<T extends string>(props: {
  legend: string;
  options: readonly T[];
  chosen: readonly T[];
  onChange: (chosen: T[]) => void;
  problem: string | undefined;
  labelOf?: (option: T) => string;
  lacking?: (option: T) => string | undefined;
}) {
  const id = useId();
  const problemId = `${id}-problem`;
  const toggle = (option: T, on: boolean) =>
    props.onChange(props.options.filter((candidate) => (candidate === option ? on : props.chosen.includes(candidate))));
  return (
    <fieldset class="choices" aria-describedby={props.problem ? problemId : undefined}>
      <legend>{props.legend}</legend>
      {props.options.map((option, index) => {
        const lacking = props.lacking?.(option);
        const optionId = `${id}-${index}`;
        return (
          <div class="check" key={option}>
            <input
              id={optionId}
              type="checkbox"
              checked={props.chosen.includes(option)}
              disabled={Boolean(lacking)}
              aria-describedby={lacking ? `${optionId}-note` : undefined}
              onChange={(event) => toggle(option, event.currentTarget.checked)}
            />
            <label for={optionId}>{props.labelOf?.(option) ?? option}</label>
            {lacking && (
              <span class="scope-note" id={`${optionId}-note`}>
                {lacking}
              </span>
            )}
          </div>
        );
      })}
      {props.problem && (
        <p class="problem" id={problemId}>
          {props.problem}
        </p>
      )}
    </fieldset>
  );
}

/** A form's last row: the unplaced problem, then its submit button and "Cancel". */
export function FormActions(props: { submit: string; disabled: boolean; problem: unknown; onCancel: () => void }) {
  return (
    <>
      <Problem error={props.problem} />
      <div class="actions">
        <button type="submit" disabled={props.disabled}>
          {props.submit}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
