import { createContext, type ComponentChildren, type JSX } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError, setWorkspaceHeader, whenUnauthorized } from './api/client.js';
import type { Me, Workspace } from './api/types.js';

// Who is signed in and which workspace the Console acts in. The choice of workspace is kept per
// browser (localStorage), so a reload or a new tab opens the same one.

const STORAGE_KEY = 'console.workspace';

export interface SessionValue {
  /** undefined while loading, null when signed out. */
  me: Me | null | undefined;
  workspace: Workspace | null;
  isAdmin: boolean;
  selectWorkspace: (id: string) => void;
  /** Reads `GET /api/auth/me` again (after sign-in, a new workspace, an accepted invite). */
  refresh: () => Promise<Me | null>;
  signedOut: () => void;
}

const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

function storedWorkspace(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function storeWorkspace(id: string | null): void {
  try {
    if (id) window.localStorage.setItem(STORAGE_KEY, id);
    else window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Private mode without storage: the choice lasts until the reload.
  }
}

export function SessionProvider({ children }: { children: ComponentChildren }): JSX.Element {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [selected, setSelected] = useState<string | null>(storedWorkspace);

  const refresh = useCallback(async (): Promise<Me | null> => {
    try {
      const next = await api.get<Me>('/api/auth/me', { quiet401: true });
      setMe(next);
      return next;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        setMe(null);
        return null;
      }
      throw error;
    }
  }, []);

  useEffect(() => {
    whenUnauthorized(() => setMe(null));
    refresh().catch(() => setMe(null));
  }, [refresh]);

  const workspace = useMemo(() => {
    const list = me?.workspaces ?? [];
    return list.find((w) => w.id === selected) ?? list[0] ?? null;
  }, [me, selected]);

  // Set synchronously during render, so the first requests of a page already carry it.
  setWorkspaceHeader(workspace?.id ?? null);

  const selectWorkspace = useCallback((id: string) => {
    storeWorkspace(id);
    setSelected(id);
  }, []);

  const signedOut = useCallback(() => setMe(null), []);

  const value: SessionValue = {
    me,
    workspace,
    isAdmin: workspace?.role === 'owner' || workspace?.role === 'admin',
    selectWorkspace,
    refresh,
    signedOut,
  };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
