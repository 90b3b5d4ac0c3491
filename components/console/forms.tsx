"use client";

import { createContext, useActionState, useContext, useEffect, useId, useRef, startTransition, type ReactNode } from "react";
import type { ActionState } from "@/lib/application/console/action";

/**
 * A console Server Action as a form calls it (app/console/actions/*): the state before and the form's data in, the
 * next state out. Pages pass one to a component as a prop, so components import nothing from app/.
 */
export type ConsoleFormAction = (prev: ActionState, form: FormData) => Promise<ActionState>;
type Action = ConsoleFormAction;
const FormErrors = createContext<Record<string, string>>({});
const FormPending = createContext(false);

/**
 * A form bound to a console Server Action: shows the result (success, error, values shown once) above the
 * buttons, field errors under each field, and disables its buttons while the action runs. The form keeps what
 * was typed when the action refuses it; `resetOnSuccess` clears it after a success.
 */
export function ActionForm({
  action,
  children,
  className = "",
  resetOnSuccess = false,
  confirm,
  label,
  shownOnceNote,
  onSuccess,
}: {
  action: Action;
  children: ReactNode;
  className?: string;
  resetOnSuccess?: boolean;
  /** A question the browser asks before sending (destructive actions). */
  confirm?: string;
  /** Accessible name of the form. */
  label?: string;
  /** Explains values shown once (keys, secrets). */
  shownOnceNote?: string;
  /** Called once after the action succeeded (for example to show the result outside a form that disappears). */
  onSuccess?: () => void;
}) {
  // onSuccess runs as soon as the action answers, also when the answer re-renders this form away (an approved
  // withdrawal leaves the queue together with its form).
  const run: Action = async (prev, form) => {
    const next = await action(prev, form);
    if (next.status === "ok") onSuccess?.();
    return next;
  };
  const [state, dispatch, pending] = useActionState(onSuccess ? run : action, { status: "idle" } as ActionState);
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state.status === "ok" && resetOnSuccess) ref.current?.reset();
  }, [state, resetOnSuccess]);
  const errors = state.status === "error" ? (state.fieldErrors ?? {}) : {};
  return (
    <FormErrors.Provider value={errors}>
      <FormPending.Provider value={pending}>
        <form
          ref={ref}
          aria-label={label}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (confirm && !window.confirm(confirm)) return;
            const data = new FormData(e.currentTarget);
            const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            if (submitter?.name) data.set(submitter.name, submitter.value);
            startTransition(() => dispatch(data));
          }}
        >
          <div className={className}>{children}</div>
          <ActionResult state={state} note={shownOnceNote} />
        </form>
      </FormPending.Provider>
    </FormErrors.Provider>
  );
}

function ActionResult({ state, note }: { state: ActionState; note?: string }) {
  if (state.status === "idle") return null;
  if (state.status === "error") {
    return (
      <p role="alert" className="mt-3 rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-900" data-testid="action-error">
        {state.message}
      </p>
    );
  }
  // An answer with findings to fix (a signature check that does not match) is shown in amber, not green.
  const tone = state.details?.some((d) => !d.ok) ? "border-amber-300 bg-amber-50 text-amber-950" : "border-emerald-200 bg-emerald-50 text-emerald-900";
  return (
    <div role="status" className={`mt-3 rounded-md border px-3 py-2 text-sm ${tone}`} data-testid="action-ok">
      <p>{state.message}</p>
      {state.details ? (
        <ul className="mt-2 space-y-1" data-testid="action-details">
          {state.details.map((d, i) => (
            <li key={i} className={d.ok ? "text-emerald-900" : "font-medium text-rose-800"}>
              <span aria-hidden="true">{d.ok ? "✓ " : "✗ "}</span>
              <span className="sr-only">{d.ok ? "Right: " : "Differs: "}</span>
              {d.text}
            </li>
          ))}
        </ul>
      ) : null}
      {state.shownOnce ? (
        <div className="mt-2 space-y-2">
          {note ? <p className="font-semibold">{note}</p> : null}
          {Object.entries(state.shownOnce).map(([name, value]) => (
            <div key={name}>
              <p className="text-xs uppercase tracking-wide text-emerald-800">{name}</p>
              <code
                data-testid={`shown-once-${name.toLowerCase().replaceAll(" ", "-")}`}
                className="mt-0.5 block select-all break-all rounded bg-white px-2 py-1.5 font-mono text-xs text-slate-900 ring-1 ring-emerald-200"
              >
                {value}
              </code>
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}

const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 aria-[invalid=true]:border-rose-400";

/** A labelled input, select or textarea with its field error. */
export function Field({
  name,
  label,
  hint,
  type = "text",
  defaultValue,
  options,
  required,
  placeholder,
  multiline,
  inputMode,
  autoComplete,
  rows = 2,
  className = "",
}: {
  name: string;
  label: string;
  hint?: string;
  type?: string;
  defaultValue?: string | number;
  options?: { value: string; label: string }[];
  required?: boolean;
  placeholder?: string;
  multiline?: boolean;
  inputMode?: "numeric" | "decimal" | "text";
  autoComplete?: string;
  /** Visible lines of a multiline field. */
  rows?: number;
  className?: string;
}) {
  const id = useId();
  const error = useContext(FormErrors)[name];
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const common = { id, name, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy, required, className: inputClass };
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
        {required ? <span className="text-rose-600"> *</span> : null}
      </label>
      <div className="mt-1">
        {options ? (
          <select {...common} defaultValue={defaultValue}>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        ) : multiline ? (
          <textarea {...common} rows={rows} defaultValue={defaultValue} placeholder={placeholder} />
        ) : (
          <input {...common} type={type} defaultValue={defaultValue} placeholder={placeholder} inputMode={inputMode} autoComplete={autoComplete} />
        )}
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-xs font-medium text-rose-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A group of checkboxes sharing one name (each checked value is sent). */
export function CheckboxGroup({
  name,
  legend,
  options,
  defaultChecked = [],
  hint,
}: {
  name: string;
  legend: string;
  options: { value: string; label: string }[];
  defaultChecked?: string[];
  hint?: string;
}) {
  const error = useContext(FormErrors)[name];
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-2">
        {options.map((o) => (
          <label key={o.value} className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              name={name}
              value={o.value}
              defaultChecked={defaultChecked.includes(o.value)}
              className="h-4 w-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-500"
            />
            {o.label}
          </label>
        ))}
      </div>
      {error ? <p className="mt-1 text-xs font-medium text-rose-700">{error}</p> : null}
    </fieldset>
  );
}

/** One checkbox with its label. */
export function Checkbox({ name, label, defaultChecked, hint }: { name: string; label: string; defaultChecked?: boolean; hint?: string }) {
  return (
    <label className="flex items-start gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        name={name}
        defaultChecked={defaultChecked}
        className="mt-0.5 h-4 w-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-500"
      />
      <span>
        {label}
        {hint ? <span className="block text-xs text-slate-500">{hint}</span> : null}
      </span>
    </label>
  );
}

const BUTTON = {
  primary: "bg-indigo-600 text-white hover:bg-indigo-700 focus-visible:outline-indigo-600",
  secondary: "bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-slate-500",
  danger: "bg-rose-600 text-white hover:bg-rose-700 focus-visible:outline-rose-600",
} as const;

/** The form's submit button; disabled while the action runs, or with a reason shown beside it. */
export function SubmitButton({
  children,
  variant = "primary",
  disabledReason,
  name,
  value,
}: {
  children: ReactNode;
  variant?: keyof typeof BUTTON;
  disabledReason?: string | null;
  name?: string;
  value?: string;
}) {
  const pending = useContext(FormPending);
  const reasonId = useId();
  const disabled = pending || !!disabledReason;
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <button
        type="submit"
        name={name}
        value={value}
        disabled={disabled}
        aria-describedby={disabledReason ? reasonId : undefined}
        title={disabledReason ?? undefined}
        className={`inline-flex items-center justify-center rounded-md px-3.5 py-2 text-sm font-semibold shadow-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50 ${BUTTON[variant]}`}
      >
        {pending ? "Working…" : children}
      </button>
      {disabledReason ? (
        <span id={reasonId} className="max-w-xs text-xs text-slate-600" data-testid="disabled-reason">
          {disabledReason}
        </span>
      ) : null}
    </span>
  );
}

/** A hidden input (ids of the record an action works on). */
export function Hidden({ name, value }: { name: string; value: string }) {
  return <input type="hidden" name={name} value={value} />;
}
