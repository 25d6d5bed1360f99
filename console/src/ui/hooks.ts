import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client.js';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
  reload: () => Promise<void>;
  /** Replaces the data in place (after a change the page made itself, or a live event). */
  set: (update: T | ((previous: T | undefined) => T | undefined)) => void;
}

function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, (error as Error)?.message || 'Something went wrong.');
}

/** Loads `load()` on mount and whenever `deps` change; keeps the last data while reloading. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const latest = useRef(load);
  latest.current = load;

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const value = await latest.current();
      if (mine !== generation.current) return;
      setData(value);
      setError(null);
    } catch (caught) {
      if (mine !== generation.current) return;
      setError(asApiError(caught));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, deps);

  return { data, error, loading, reload, set: setData as Loaded<T>['set'] };
}

export interface Action<A extends unknown[]> {
  run: (...args: A) => Promise<boolean>;
  busy: boolean;
  error: ApiError | null;
  clear: () => void;
}

/** A button's or a form's action: busy while it runs, its error kept for display; answers success. */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<unknown>): Action<A> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const latest = useRef(action);
  latest.current = action;
  const run = useCallback(async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      await latest.current(...args);
      return true;
    } catch (caught) {
      setError(asApiError(caught));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { run, busy, error, clear: () => setError(null) };
}

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Runs `tick` every `ms` while `active`. */
export function useInterval(tick: () => void, ms: number, active: boolean): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return undefined;
    const timer = window.setInterval(() => latest.current(), ms);
    return () => window.clearInterval(timer);
  }, [ms, active]);
}

/**
 * `item` in `list`: in place of the entry with its id (an edit keeps its position), else added at
 * the start (lists newest first) or the end (oldest first).
 */
export function upsert<T extends { id: string }>(list: T[] | undefined, item: T, end: 'start' | 'end' = 'start'): T[] {
  const current = list ?? [];
  if (current.some((x) => x.id === item.id)) return current.map((x) => (x.id === item.id ? item : x));
  return end === 'start' ? [item, ...current] : [...current, item];
}
