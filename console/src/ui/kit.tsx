import type { ButtonHTMLAttributes, ComponentChildren, InputHTMLAttributes, JSX, SelectHTMLAttributes, TextareaHTMLAttributes } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../api/client.js';

// Small building blocks shared by every page: plain HTML controls (so keyboard and screen readers
// work without extra code), readable errors, empty states and progress.

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { busy?: boolean; variant?: 'primary' | 'secondary' | 'danger' | 'link' };

export function Button({ busy, variant = 'secondary', children, disabled, type = 'button', class: extra, ...rest }: ButtonProps): JSX.Element {
  return (
    <button type={type} class={`btn btn-${variant}${extra ? ` ${extra}` : ''}`} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {busy ? <span class="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string };

export function Field({ label, hint, ...input }: FieldProps): JSX.Element {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint ? (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

type AreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; hint?: string };

export function TextArea({ label, hint, ...area }: AreaProps): JSX.Element {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...area} />
      {hint ? (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: [string, string][] };

export function Select({ label, options, ...select }: SelectProps): JSX.Element {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} {...select}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** An API error as a sentence, announced to screen readers. */
export function ErrorNote({ error, children }: { error?: ApiError | null; children?: ComponentChildren }): JSX.Element | null {
  if (!error && !children) return null;
  return (
    <p class="note note-error" role="alert">
      {error ? error.message : children}
    </p>
  );
}

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'success' | 'warning'; children: ComponentChildren }): JSX.Element {
  return (
    <div class={`note note-${kind}`} role={kind === 'success' ? 'status' : undefined}>
      {children}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }): JSX.Element {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children ? <div class="empty-body">{children}</div> : null}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }): JSX.Element {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function ProgressBar({ value, label }: { value: number; label: string }): JSX.Element {
  const clamped = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div class="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={clamped}>
      <div class="progress-fill" style={{ width: `${clamped}%` }} />
      <span class="progress-text">{clamped}%</span>
    </div>
  );
}

/** The page's title and its main actions. */
export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }): JSX.Element {
  useEffect(() => {
    document.title = `${title} · WhatsApp Inbox`;
  }, [title]);
  return (
    <header class="page-header">
      <h1>{title}</h1>
      {children ? <div class="page-actions">{children}</div> : null}
    </header>
  );
}

/**
 * A modal dialog on the native `<dialog>`: focus moves in and is kept there, Escape cancels, and
 * focus returns to the button that opened it.
 */
export function Dialog({ title, onClose, wide, children }: { title: string; onClose: () => void; wide?: boolean; children: ComponentChildren }): JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    dialog?.showModal();
    return () => {
      dialog?.close();
      opener?.focus?.();
    };
  }, []);
  return (
    <dialog ref={ref} class={wide ? 'dialog dialog-wide' : 'dialog'} aria-labelledby={titleId} onCancel={(event) => (event.preventDefault(), onClose())}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

interface ConfirmProps {
  title: string;
  confirmLabel: string;
  onConfirm: () => Promise<boolean>;
  onClose: () => void;
  busy?: boolean;
  error?: ApiError | null;
  children: ComponentChildren;
}

export function Confirm({ title, confirmLabel, onConfirm, onClose, busy, error, children }: ConfirmProps): JSX.Element {
  return (
    <Dialog title={title} onClose={onClose}>
      <div class="dialog-body">{children}</div>
      <ErrorNote error={error} />
      <div class="dialog-actions">
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="danger" busy={busy} onClick={async () => (await onConfirm()) && onClose()}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }): JSX.Element {
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle');
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('done');
    } catch {
      setCopied('failed');
    }
    window.setTimeout(() => setCopied('idle'), 2500);
  };
  return (
    <Button onClick={copy} aria-live="polite">
      {copied === 'done' ? 'Copied' : copied === 'failed' ? 'Select and copy it by hand' : label}
    </Button>
  );
}

export function Badge({
  kind = 'neutral',
  children,
  title,
}: {
  kind?: 'neutral' | 'success' | 'warning' | 'danger' | 'accent';
  title?: string;
  children: ComponentChildren;
}): JSX.Element {
  return (
    <span class={`badge badge-${kind}`} title={title}>
      {children}
    </span>
  );
}

/** A time as the reader's clock shows it, with the exact moment on hover. */
export function Time({ value, relative = false }: { value: string | null | undefined; relative?: boolean }): JSX.Element {
  if (!value) return <span>—</span>;
  const date = new Date(value);
  return (
    <time dateTime={value} title={date.toLocaleString()}>
      {relative ? relativeTime(date) : date.toLocaleString()}
    </time>
  );
}

export function relativeTime(date: Date, now = Date.now()): string {
  const seconds = Math.round((now - date.getTime()) / 1000);
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400 && new Date(now).toDateString() === date.toDateString()) return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (seconds < 7 * 86_400) return date.toLocaleDateString([], { weekday: 'short', hour: '2-digit', minute: '2-digit' });
  return date.toLocaleDateString();
}

/** `4915123456789:12@s.whatsapp.net` → `+49 15123456789`-ish: the number people know. */
export function phoneOfJid(jid: string | undefined): string {
  if (!jid) return '';
  const digits = jid.split('@')[0]!.split(':')[0]!;
  return /^\d+$/.test(digits) ? `+${digits}` : digits;
}

export function fileSize(bytes: number): string {
  if (!bytes) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function durationText(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}

interface FormDialogProps {
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  busy: boolean;
  error: ApiError | null;
  submitLabel?: string;
  /** Room for a form of several columns (the automation form). */
  wide?: boolean;
  children: ComponentChildren;
}

/** A dialog holding one form: its fields, the error of the last try, Cancel and the submit button. */
export function FormDialog({ title, onClose, onSubmit, busy, error, submitLabel = 'Save', wide, children }: FormDialogProps): JSX.Element {
  return (
    <Dialog title={title} onClose={onClose} wide={wide}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
        <ErrorNote error={error} />
        <div class="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Edit (unless there is no `onEdit`) and Delete under a card of a list. */
export function EditDelete({ onEdit, onDelete, what }: { onEdit?: () => void; onDelete: () => void; what: string }): JSX.Element {
  return (
    <div class="row">
      {onEdit ? (
        <Button variant="link" onClick={onEdit} aria-label={`Edit ${what}`}>
          Edit
        </Button>
      ) : null}
      <Button variant="link" onClick={onDelete} aria-label={`Delete ${what}`}>
        Delete
      </Button>
    </div>
  );
}

/** A table of rows with a last, unlabelled column for each row's actions. */
export function Table({ columns, label, children }: { columns: string[]; label?: string; children: ComponentChildren }): JSX.Element {
  return (
    <table class="table" aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
